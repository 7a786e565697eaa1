# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The chunk scheduler: threads sharing the rows of one batch kernel call
whose output is in CSR layout (each row writes a varying number of
children), with the same output, in the same order, as one thread.

Batch move generation (``_movegen.generate_shared``) and the vector
environment's step (``_env.env_answer``) run on it; docs/design.md
("Randomness and scaling") describes the scheme.
"""
from libc.stdint cimport uint8_t, int8_t, int64_t, uintptr_t
from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memcpy

from backgammon._movegen cimport MAX_PLAYS, BOARD_BYTES, MOVE_BYTES

# Rows are taken in chunks, a chunk at a time from a shared counter.  A chunk
# whose start in the output is already known (every earlier chunk counted)
# writes there directly; otherwise it writes into this thread's scratch, which
# stays in cache, and is copied in once the chunk before it publishes its end.
# So the output is the one-thread output for any number of threads.

cdef extern from "_sync.h":
    int64_t bg_load_acquire(const int64_t* p) nogil
    void bg_store_release(int64_t* p, int64_t v) nogil
    int64_t bg_fetch_add(int64_t* p, int64_t v) nogil
    void bg_relax(int spins) nogil
    void bg_stream_copy(void* dst, const void* src, size_t n) nogil
    bint bg_cas(int64_t* p, int64_t* expected, int64_t v) nogil
    void bg_populate(void* p, size_t n) nogil
    void bg_prefetch_write(const void* p) nogil


cdef extern from *:
    """
    /* Swap a pointer atomically (the spare scratch blocks below). */
    #if defined(_MSC_VER)
    #include <windows.h>
    static void* bg_swap_ptr(void** p, void* v) { return InterlockedExchangePointer((void* volatile*)p, v); }
    #else
    static void* bg_swap_ptr(void** p, void* v) { return __atomic_exchange_n(p, v, __ATOMIC_ACQ_REL); }
    #endif
    """
    void* bg_swap_ptr(void** p, void* v) nogil


cdef enum:
    PENDING = 4        # chunks a thread may hold unplaced before it waits
    SPARES = 4         # scratch blocks kept between runs (one a thread)
    HEADER = 64        # a scratch block's size is kept in its first bytes
    HUGE_PAGE = 1 << 21
    MAP_AHEAD = 4096   # children ahead of a thread's place that _map_to maps
    PREFETCH_BYTES = 2048   # output below its place a downward thread asks for
    # Where run_chained's shared numbers live in Chain.sync, each on its own
    # cache line: the next chunk to take, the failure flag, then one more
    # than where each chunk starts in the output (0 while unknown).
    SYNC_NEXT = 0
    SYNC_MODE = 1      # 1: two threads meeting at an anchor (_run_meeting)
    SYNC_FAIL = 8
    SYNC_STARTS = 16
    # _run_meeting's numbers, each on its own cache line (SYNC_FAIL shared):
    # roles taken, each side's range of blocks (see _claim), where each
    # side's own rows ended (plus one; 0 while unknown), where the output
    # starts (plus one), threads finished; then what the run was given.
    M_ROLE = 16
    M_RANGE_UP = 24
    M_RANGE_DOWN = 32
    M_END_UP = 40
    M_END_DOWN = 48
    M_BASE = 56
    M_DONE = 64
    M_SPLIT = 72
    M_ANCHOR = 73
    M_POPULATE = 74   # 1: fresh output, mapped by _map_to
    M_SLOTS = 80
    STEAL_ROWS = 33792     # children of taken-over rows held before a thread's scratch grows


ctypedef struct _Chunk:
    # A chunk generated into scratch, waiting for its place in the output.
    uint8_t* kids
    int8_t* moves
    Py_ssize_t k, lo, stop     # rows lo..stop-1 are in scratch
    int64_t count


ctypedef struct _Chain:
    RowWriter write_row
    void* ctx
    Py_ssize_t n, chunk, capacity
    int64_t* offsets
    uint8_t* children
    int8_t* moves
    int64_t* sync


cdef inline bint _direct(_Chain* c, Py_ssize_t i, Py_ssize_t hi, int64_t* at) noexcept nogil:
    # Rows i..hi-1 straight into the output from at; False when it is full.
    cdef int k
    while i < hi:
        if c.capacity - at[0] < MAX_PLAYS:
            return False
        k = c.write_row(c.ctx, i, c.children + at[0] * BOARD_BYTES,
                        c.moves + at[0] * MOVE_BYTES if c.moves != NULL else NULL)
        at[0] += k
        c.offsets[i + 1] = at[0]
        i += 1
    return True


cdef inline int _fail(_Chain* c, int why) noexcept nogil:
    if bg_load_acquire(&c.sync[SYNC_FAIL]) == 0:
        bg_store_release(&c.sync[SYNC_FAIL], why)
    return -1


cdef int _place(_Chain* c, _Chunk* p, bint wait) noexcept nogil:
    """Copy a scratch chunk to its place once the chunks before it are
    counted: 1 when placed, 0 when not yet (without ``wait``), -1 when the
    run failed."""
    cdef int spins = 0
    cdef int64_t base, at
    cdef Py_ssize_t j, hi = min(c.n, p.lo + c.chunk)
    while True:
        base = bg_load_acquire(&c.sync[SYNC_STARTS + p.k]) - 1
        if base >= 0:
            break
        if bg_load_acquire(&c.sync[SYNC_FAIL]):
            return -1
        if not wait:
            return 0
        bg_relax(spins)
        spins += 1
    if c.capacity - base < p.count:
        return _fail(c, 1)
    if p.stop == hi:
        # Counted: the next chunk may place itself while this one copies.
        bg_store_release(&c.sync[SYNC_STARTS + 1 + p.k], base + p.count + 1)
    bg_stream_copy(c.children + base * BOARD_BYTES, p.kids, p.count * BOARD_BYTES)
    if c.moves != NULL:
        bg_stream_copy(c.moves + base * MOVE_BYTES, p.moves, p.count * MOVE_BYTES)
    for j in range(p.lo + 1, p.stop + 1):
        c.offsets[j] += base
    if p.stop < hi:
        # The scratch filled up: the rest of the chunk goes straight in.
        at = base + p.count
        if not _direct(c, p.stop, hi, &at):
            return _fail(c, 1)
        bg_store_release(&c.sync[SYNC_STARTS + 1 + p.k], at + 1)
    return 1


cdef int _place_all(_Chain* c, _Chunk* held, int* first, int* pending) noexcept nogil:
    # Every chunk held, oldest first, waiting as needed: 0, or -1 on failure.
    while pending[0]:
        if _place(c, &held[first[0]], True) < 0:
            return -1
        first[0] = (first[0] + 1) % PENDING
        pending[0] -= 1
    return 0


# Scratch blocks kept between runs: a fresh one (1.8 MB) is mapped a page at
# a time, about 450 page faults for each thread of each call that had to
# take one.  Taken and given back with atomic swaps, without the GIL.
cdef void* _spare[SPARES]


cdef char* _take_scratch(size_t size) noexcept nogil:
    # A block of at least size bytes (after its header), or NULL.
    cdef int i
    cdef char* b
    for i in range(SPARES):
        b = <char*>bg_swap_ptr(&_spare[i], NULL)
        if b != NULL:
            if (<size_t*>b)[0] >= size:
                return b
            free(b)
    b = <char*>malloc(HEADER + size)
    if b != NULL:
        (<size_t*>b)[0] = size
    return b


cdef void _give_scratch(char* b) noexcept nogil:
    # Keep the block for the next run (whatever it displaces is kept in
    # the next slot, the last one freed).
    cdef int i
    for i in range(SPARES):
        if b == NULL:
            return
        b = <char*>bg_swap_ptr(&_spare[i], b)
    free(b)


def kept_scratch():
    """How many scratch blocks are kept between runs."""
    cdef int i, n = 0
    for i in range(SPARES):
        n += _spare[i] != NULL
    return n


def release_scratch():
    """Free the scratch blocks kept between runs."""
    cdef int i
    with nogil:
        for i in range(SPARES):
            free(bg_swap_ptr(&_spare[i], NULL))


# -- two threads meeting at an anchor ------------------------------------------------------
#
# With two threads no row need be copied: rows 0..split-1 go to the thread
# writing down (from split-1 to 0, each row's children generated into a
# small buffer in L1 and placed just below the ones before), rows split..n-1
# to the thread writing up from the same place in the output, the anchor.
# The output then starts wherever the downward thread ends (Chain.start):
# the result is a view from there.  Each side takes its rows a block at a
# time; a thread that finishes its side takes blocks from the far end of the
# other's into its scratch and copies them in when the owner has ended
# (what balances the two; rarely more than a few blocks).

ctypedef struct _Region:
    # Children written downward from cap (data in [cap - used, cap)), or
    # upward from 0 (in [0, used)); grown (heap, NULL: none) when the
    # scratch ran out.
    uint8_t* kids
    int8_t* moves
    Py_ssize_t cap, used
    char* grown


cdef int64_t LOW_HALF = (<int64_t>1 << 32) - 1


cdef inline int64_t _claim(int64_t* word, bint near) noexcept nogil:
    # A side's unclaimed blocks are lo..hi-1 (word = lo | hi << 32): its
    # owner takes the nearest (lo), the other thread the farthest; -1: none.
    cdef int64_t w = bg_load_acquire(word), lo, hi
    while True:
        lo = w & LOW_HALF
        hi = w >> 32
        if lo >= hi:
            return -1
        if near:
            if bg_cas(word, &w, (lo + 1) | (hi << 32)):
                return lo
        elif bg_cas(word, &w, lo | ((hi - 1) << 32)):
            return hi - 1


cdef void _lay_out(char* block, bint moves, _Region* t, uint8_t** stage, int8_t** stage_moves) noexcept nogil:
    # A scratch block of a two-thread run: a row's stage (MAX_PLAYS), then
    # the rows taken over, as many as the block holds; their moves after.
    cdef Py_ssize_t rows = ((<size_t*>block)[0]) // (BOARD_BYTES + (MOVE_BYTES if moves else 0))
    stage[0] = <uint8_t*>(block + HEADER)
    t.kids = stage[0] + MAX_PLAYS * BOARD_BYTES
    t.moves = NULL
    stage_moves[0] = NULL
    if moves:
        stage_moves[0] = <int8_t*>(block + HEADER + rows * BOARD_BYTES)
        t.moves = stage_moves[0] + MAX_PLAYS * MOVE_BYTES
    t.cap = rows - MAX_PLAYS
    t.used = 0


cdef bint _grow(_Region* t, bint down) noexcept nogil:
    # Twice the room, keeping what is written (at the same distance from
    # the top when writing down), in a scratch block that is kept for the
    # next run (it then starts with that much room).
    cdef Py_ssize_t rows = MAX_PLAYS + 2 * t.cap
    cdef size_t size = rows * (BOARD_BYTES + (MOVE_BYTES if t.moves != NULL else 0))
    cdef char* b = <char*>malloc(HEADER + size)
    cdef _Region n
    cdef uint8_t* unused_stage
    cdef int8_t* unused_moves
    if b == NULL:
        return False
    (<size_t*>b)[0] = size
    _lay_out(b, t.moves != NULL, &n, &unused_stage, &unused_moves)
    cdef Py_ssize_t old = t.cap - t.used if down else 0, new = n.cap - t.used if down else 0
    memcpy(n.kids + new * BOARD_BYTES, t.kids + old * BOARD_BYTES, t.used * BOARD_BYTES)
    if t.moves != NULL:
        memcpy(n.moves + new * MOVE_BYTES, t.moves + old * MOVE_BYTES, t.used * MOVE_BYTES)
    n.used = t.used
    free(t.grown)
    n.grown = b
    t[0] = n
    return True


cdef int _down(_Chain* c, Py_ssize_t lo, Py_ssize_t hi, _Region* t, bint grow,
               uint8_t* stage, int8_t* stage_moves) noexcept nogil:
    """Rows hi-1 down to lo, each below the last: offsets[i + 1] is where
    row i ends, counted from the region's top (<= 0).  0, or 1 (no room),
    2 (memory)."""
    cdef Py_ssize_t i = hi
    cdef int k
    cdef uintptr_t start = <uintptr_t>t.kids, fetched = 0, want
    while i > lo:
        i -= 1
        c.offsets[i + 1] = -t.used
        # The lines the next rows will likely fill are asked for while this
        # one is generated: copied in one burst, rows written to lines not
        # in cache wait for each (about a fifth of the generation's time).
        want = <uintptr_t>(t.kids + (t.cap - t.used) * BOARD_BYTES)
        if fetched == 0 or fetched > want + 64:
            fetched = want & ~(<uintptr_t>63)
        want = want - PREFETCH_BYTES if want - start > PREFETCH_BYTES else start
        while fetched > want:
            fetched -= 64
            bg_prefetch_write(<void*>fetched)
        k = c.write_row(c.ctx, i, stage, stage_moves)
        if t.cap - t.used < k:
            if not grow:
                return 1
            if not _grow(t, True):
                return 2
            start = <uintptr_t>t.kids
            fetched = 0
        t.used += k
        memcpy(t.kids + (t.cap - t.used) * BOARD_BYTES, stage, k * BOARD_BYTES)
        if t.moves != NULL:
            memcpy(t.moves + (t.cap - t.used) * MOVE_BYTES, stage_moves, k * MOVE_BYTES)
    return 0


cdef int _up(_Chain* c, Py_ssize_t lo, Py_ssize_t hi, _Region* t) noexcept nogil:
    # Rows lo..hi-1 into a region from its start: 0, or 2 (memory).
    cdef Py_ssize_t i
    for i in range(lo, hi):
        if t.cap - t.used < MAX_PLAYS and not _grow(t, False):
            return 2
        t.used += c.write_row(c.ctx, i, t.kids + t.used * BOARD_BYTES,
                              t.moves + t.used * MOVE_BYTES if t.moves != NULL else NULL)
        c.offsets[i + 1] = t.used
    return 0


cdef inline int64_t _await(int64_t* sync, Py_ssize_t slot) noexcept nogil:
    # A number another thread will publish (plus one), or -1 on failure.
    cdef int spins = 0
    cdef int64_t v
    while True:
        v = bg_load_acquire(&sync[slot])
        if v:
            return v - 1
        if bg_load_acquire(&sync[SYNC_FAIL]):
            return -1
        bg_relax(spins)
        spins += 1


ctypedef struct _Mapper:
    # Fresh output mapped a 2 MiB page at a time just before a thread
    # writes there, so that the zeros the kernel writes are still in cache
    # when the children overwrite them.  The page holding the anchor is the
    # upward thread's.
    uintptr_t lo, hi           # the array's bytes
    uintptr_t mark             # mapped from the anchor's page up to here, or down to here
    Py_ssize_t size            # bytes a child


cdef inline void _mapper(_Mapper* p, void* array, Py_ssize_t capacity, Py_ssize_t size,
                         Py_ssize_t anchor) noexcept nogil:
    p.lo = <uintptr_t>array
    p.hi = p.lo + capacity * size
    p.size = size
    p.mark = (p.lo + anchor * size) & ~(<uintptr_t>HUGE_PAGE - 1)


cdef inline void _map_to(_Mapper* p, Py_ssize_t at, bint up) noexcept nogil:
    # Map the pages the next block's children will reach from child ``at``.
    cdef uintptr_t want, start
    if up:
        want = p.lo + (at + MAP_AHEAD) * p.size
        while p.mark < want and p.mark < p.hi:
            bg_populate(<void*>p.mark, min(<uintptr_t>HUGE_PAGE, p.hi - p.mark))
            p.mark += HUGE_PAGE
    else:
        want = p.lo + (at - MAP_AHEAD) * p.size if at > MAP_AHEAD else p.lo
        while p.mark > want and p.mark > p.lo:
            start = p.mark - HUGE_PAGE if p.mark - p.lo > HUGE_PAGE else p.lo
            bg_populate(<void*>start, p.mark - start)
            p.mark = start


cdef int _run_meeting(_Chain* c) noexcept nogil:
    cdef int64_t* sync = c.sync
    cdef int64_t role = bg_fetch_add(&sync[M_ROLE], 1)
    cdef bint up = role == 0
    cdef Py_ssize_t n = c.n, chunk = c.chunk, m = sync[M_SPLIT], anchor = sync[M_ANCHOR]
    cdef Py_ssize_t lo, hi, i, stolen_lo, stolen_hi
    cdef int64_t* mine = &sync[M_RANGE_UP if up else M_RANGE_DOWN]
    cdef int64_t* theirs = &sync[M_RANGE_DOWN if up else M_RANGE_UP]
    # Blocks on this side (the word's count may already be cut by the other thread).
    cdef int64_t nb_mine = (n - m + chunk - 1) // chunk if up else (m + chunk - 1) // chunk
    cdef int64_t j, at = anchor, end, base, w
    cdef int status = 0, r
    cdef bint claimed = False, stole = False, other_active, map_fresh = sync[M_POPULATE] != 0
    cdef _Region own, st
    cdef _Mapper map_kids, map_moves
    cdef size_t kid_bytes = (MAX_PLAYS + STEAL_ROWS) * BOARD_BYTES
    cdef char* block
    cdef uint8_t* stage
    cdef int8_t* stage_moves = NULL
    if role > 1:
        return 0                 # two threads take part; any other has nothing to do
    if anchor > c.capacity or c.capacity - anchor < MAX_PLAYS:
        _fail(c, 1)
        return 1
    block = _take_scratch(kid_bytes + ((MAX_PLAYS + STEAL_ROWS) * MOVE_BYTES if c.moves != NULL else 0))
    if block == NULL:
        _fail(c, 2)
        return 2
    _lay_out(block, c.moves != NULL, &st, &stage, &stage_moves)
    st.grown = NULL
    own.kids = c.children
    own.moves = c.moves
    own.cap = anchor
    own.used = 0
    own.grown = NULL
    _mapper(&map_kids, c.children, c.capacity, BOARD_BYTES, anchor)
    _mapper(&map_moves, c.moves, c.capacity if c.moves != NULL else 0, MOVE_BYTES, anchor)
    # This side's rows, nearest block first.
    while True:
        j = _claim(mine, True)
        if j < 0:
            break
        if bg_load_acquire(&sync[SYNC_FAIL]):
            status = -1
            break
        claimed = True
        if map_fresh:
            _map_to(&map_kids, at if up else anchor - own.used, up)
            _map_to(&map_moves, at if up else anchor - own.used, up)
        if up:
            lo = m + j * chunk
            if not _direct(c, lo, min(n, lo + chunk), &at):
                status = _fail(c, 1)
                break
        else:
            hi = m - j * chunk
            r = _down(c, max(0, hi - chunk), hi, &own, False, stage, stage_moves)
            if r:
                status = _fail(c, r)
                break
    if status == 0 and claimed:
        bg_store_release(&sync[M_END_UP if up else M_END_DOWN], (at if up else own.used) + 1)
        if not up and (bg_load_acquire(mine) >> 32) == nb_mine:
            bg_store_release(&sync[M_BASE], anchor - own.used + 1)     # nothing taken below
    # Then the far end of the other side's, into scratch.
    while status == 0:
        j = _claim(theirs, False)
        if j < 0:
            break
        if bg_load_acquire(&sync[SYNC_FAIL]):
            status = -1
            break
        stole = True
        if up:
            hi = m - j * chunk
            r = _up(c, max(0, hi - chunk), hi, &st)
        else:
            lo = m + j * chunk
            r = _down(c, lo, min(n, lo + chunk), &st, True, stage, stage_moves)
        if r:
            status = _fail(c, r)
    if stole:
        bg_fetch_add(&sync[M_DONE + 1], st.used)
    if status == 0 and stole:
        # Copied in once the owner has ended (it finishes what it took);
        # an owner that took nothing ended at the anchor.
        w = bg_load_acquire(theirs)
        end = _await(sync, M_END_DOWN if up else M_END_UP) if w & LOW_HALF else (0 if up else anchor)
        if end < 0:
            status = -1
        elif up:
            # Rows 0..stolen_hi-1, just below where the downward side ended.
            stolen_hi = max(0, m - (w >> 32) * chunk)
            base = anchor - end - st.used
            if base < 0:
                status = _fail(c, 1)
            else:
                memcpy(c.children + base * BOARD_BYTES, st.kids, st.used * BOARD_BYTES)
                if c.moves != NULL:
                    memcpy(c.moves + base * MOVE_BYTES, st.moves, st.used * MOVE_BYTES)
                for i in range(1, stolen_hi + 1):
                    c.offsets[i] += base - anchor       # from the anchor, as the downward side's
                bg_store_release(&sync[M_BASE], base + 1)
        else:
            # Rows stolen_lo..n-1, from where the upward side ended.
            stolen_lo = min(n, m + (w >> 32) * chunk)
            if c.capacity - end < st.used:
                status = _fail(c, 1)
            else:
                memcpy(c.children + end * BOARD_BYTES, st.kids + (st.cap - st.used) * BOARD_BYTES,
                       st.used * BOARD_BYTES)
                if c.moves != NULL:
                    memcpy(c.moves + end * MOVE_BYTES, st.moves + (st.cap - st.used) * MOVE_BYTES,
                           st.used * MOVE_BYTES)
                for i in range(stolen_lo + 1, n + 1):
                    c.offsets[i] += end + st.used
    _give_scratch(block)
    if st.grown != NULL:
        _give_scratch(st.grown)     # the larger, first in line for the next run
    if status == 0 and (claimed or stole):
        # Offsets from where the output starts: the downward side's rows
        # (1..m) were counted from the anchor, the upward side's absolute.
        # Each thread does its side once the other (if it worked) is done.
        other_active = (bg_load_acquire(theirs) & LOW_HALF) > 0 or (bg_load_acquire(mine) >> 32) < nb_mine
        base = _await(sync, M_BASE)
        if base < 0:
            status = -1
        elif other_active:
            bg_fetch_add(&sync[M_DONE], 1)
            j = 0
            while bg_load_acquire(&sync[M_DONE]) < 2:
                if bg_load_acquire(&sync[SYNC_FAIL]):
                    status = -1
                    break
                bg_relax(<int>j)
                j += 1
        if status == 0:
            if not up or not other_active:
                for i in range(1, m + 1):
                    c.offsets[i] += anchor - base
            if up or not other_active:
                for i in range(m + 1, n + 1):
                    c.offsets[i] -= base
    if status or bg_load_acquire(&sync[SYNC_FAIL]):
        return <int>bg_load_acquire(&sync[SYNC_FAIL])
    return 0


cdef int run_chained(RowWriter write_row, void* ctx, Py_ssize_t n, Py_ssize_t chunk,
                     int64_t* offsets, uint8_t* children, int8_t* moves, Py_ssize_t capacity,
                     int64_t* sync) noexcept nogil:
    """One thread's share of rows 0..n-1: ``write_row(ctx, i, out, moves)``
    writes row i's children (at most MAX_PLAYS) and returns how many.

    Every thread calls this with the same arrays and ``sync`` (a Chain's:
    see SYNC_NEXT, SYNC_FAIL, SYNC_STARTS); ``offsets[0]`` must be 0.
    Returns 0, 1 when ``children`` is too small, 2 when memory ran out;
    all threads then stop and the output is incomplete.

    A chunk whose start is known when it is taken is written in place;
    otherwise into scratch (in cache), copied in once the chunks before it
    are counted.  A thread holds up to PENDING such chunks before it waits,
    so threads rarely wait for one another.
    """
    cdef _Chain c
    cdef _Chunk held[PENDING]
    cdef _Chunk* p
    cdef Py_ssize_t n_chunks = (n + chunk - 1) // chunk, rows = chunk * 24 + MAX_PLAYS
    cdef Py_ssize_t k, lo, hi, i, q
    cdef int64_t at, local
    cdef int first = 0, pending = 0, m, r, status = 0
    cdef size_t kid_bytes = PENDING * rows * BOARD_BYTES
    cdef char* block
    cdef uint8_t* scratch
    cdef int8_t* scratch_moves
    c.write_row = write_row
    c.ctx = ctx
    c.n = n
    c.chunk = chunk
    c.capacity = capacity
    c.offsets = offsets
    c.children = children
    c.moves = moves
    c.sync = sync
    if sync[SYNC_MODE] == 1:
        return _run_meeting(&c)
    block = _take_scratch(kid_bytes + (PENDING * rows * MOVE_BYTES if moves != NULL else 0))
    scratch = <uint8_t*>(block + HEADER) if block != NULL else NULL
    scratch_moves = <int8_t*>(block + HEADER + kid_bytes) if block != NULL and moves != NULL else NULL
    if block == NULL:
        _fail(&c, 2)
        return 2
    for q in range(PENDING):
        held[q].kids = scratch + q * rows * BOARD_BYTES
        held[q].moves = scratch_moves + q * rows * MOVE_BYTES if moves != NULL else NULL
    while status == 0:
        # Place what can be placed; wait for the oldest when all are held.
        while pending:
            r = _place(&c, &held[first], pending == PENDING)
            if r < 0:
                status = -1
            if r != 1:
                break
            first = (first + 1) % PENDING
            pending -= 1
        if status:
            break
        k = bg_fetch_add(&sync[SYNC_NEXT], 1)
        if k >= n_chunks or bg_load_acquire(&sync[SYNC_FAIL]):
            break
        lo = k * chunk
        hi = min(n, lo + chunk)
        at = bg_load_acquire(&sync[SYNC_STARTS + k]) - 1
        if at >= 0:
            if not _direct(&c, lo, hi, &at):
                status = _fail(&c, 1)
                break
            bg_store_release(&sync[SYNC_STARTS + 1 + k], at + 1)
            continue
        p = &held[(first + pending) % PENDING]
        pending += 1
        p.k = k
        p.lo = lo
        local = 0
        i = lo
        while i < hi and rows - local >= MAX_PLAYS:
            m = write_row(ctx, i, p.kids + local * BOARD_BYTES,
                          p.moves + local * MOVE_BYTES if moves != NULL else NULL)
            local += m
            offsets[i + 1] = local
            i += 1
        p.stop = i
        p.count = local
        if i < hi:
            # Only this chunk's place lets it go on: place everything held.
            status = _place_all(&c, held, &first, &pending)
    if status == 0:
        status = _place_all(&c, held, &first, &pending)
    _give_scratch(block)
    if status or bg_load_acquire(&sync[SYNC_FAIL]):
        return <int>bg_load_acquire(&sync[SYNC_FAIL])
    return 0


cdef class Chain:
    """The shared state of one ``run_chained`` run over ``n`` rows in chunks
    of ``chunk``: made fresh for each run, given to every thread.

    With ``anchor`` (>= 0) the run is for exactly two threads meeting there
    (see ``_run_meeting``): rows before ``split`` are written downward from
    child ``anchor`` of the output, the rest upward from it, ``chunk`` rows
    a block; ``populate`` children a row are mapped ahead by each thread
    (0: none, for memory already mapped).  The output then starts at child
    ``start`` and the offsets count from there."""

    def __cinit__(self, Py_ssize_t n, Py_ssize_t chunk, *, Py_ssize_t split=0, Py_ssize_t anchor=-1,
                  bint populate=False):
        if n < 0 or chunk < 1 or n > (1 << 48):
            raise ValueError("n must be 0 to 2**48 and chunk >= 1")
        self.n = n
        self.chunk = chunk
        if anchor >= 0:
            if not 0 < split < n or (n + chunk - 1) // chunk >= (1 << 31):
                raise ValueError("split must be 1 to n - 1, with fewer than 2**31 chunks a side")
            self.sync = <int64_t*>calloc(M_SLOTS, sizeof(int64_t))
            if self.sync == NULL:
                raise MemoryError()
            self.sync[SYNC_MODE] = 1
            self.sync[M_SPLIT] = split
            self.sync[M_ANCHOR] = anchor
            self.sync[M_POPULATE] = populate
            self.sync[M_RANGE_UP] = ((n - split + chunk - 1) // chunk) << 32
            self.sync[M_RANGE_DOWN] = ((split + chunk - 1) // chunk) << 32
            return
        # Zeroed memory costs nothing until touched: starts are kept plus one.
        self.sync = <int64_t*>calloc(SYNC_STARTS + n // chunk + 2, sizeof(int64_t))
        if self.sync == NULL:
            raise MemoryError()
        self.sync[SYNC_STARTS] = 1

    def __dealloc__(self):
        free(self.sync)

    @property
    def status(self):
        """0, or why the run stopped: 1 the output was too small, 2 memory."""
        return bg_load_acquire(&self.sync[SYNC_FAIL])

    @property
    def taken_over(self):
        """Children a two-thread run generated into a thread's scratch (rows
        taken over from the other side) and copied in."""
        return self.sync[M_DONE + 1] if self.sync[SYNC_MODE] == 1 else 0

    @property
    def start(self):
        """The output's first child (0 unless two threads met at an anchor;
        -1 when such a run did not finish)."""
        if self.sync[SYNC_MODE] != 1:
            return 0
        return bg_load_acquire(&self.sync[M_BASE]) - 1
