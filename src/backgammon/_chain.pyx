# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The chunk scheduler: threads sharing the rows of one batch kernel call
whose output is in CSR layout (each row writes a varying number of
children), with the same output, in the same order, as one thread.

Batch move generation (``_movegen.generate_shared``) and the vector
environment's step (``_env.env_answer``) run on it; docs/design.md
("Randomness and scaling") describes the scheme.
"""
from libc.stdint cimport uint8_t, int8_t, int64_t
from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memset

from backgammon._movegen cimport MAX_PLAYS, BOARD_BYTES, MOVE_BYTES

# Rows are taken in chunks, a chunk at a time from a shared counter.  A chunk
# whose start in the output is already known (every earlier chunk counted)
# writes there directly; otherwise it writes into this thread's scratch, which
# stays in cache, and is copied in once the chunk before it publishes its end.
# So the output is the one-thread output for any number of threads.  The copy
# is spread over the rows the thread makes next, a piece after each row, so
# that its streamed stores drain while the generator computes; streamed
# stores do not read the output's lines first, so a child made in scratch and
# streamed in costs no more than one written in place (with two threads side
# by side, less: benchmarks/chain_cpu.py --fifo).  A chunk may also switch to
# writing in place once the chunk before it is counted (``set_switching``):
# that copies half as much, but the copy then competes with the in-place
# writes' reads of the output, and two threads take 4-9% more CPU.

cdef extern from "_sync.h":
    int64_t bg_load_acquire(const int64_t* p) nogil
    void bg_store_release(int64_t* p, int64_t v) nogil
    int64_t bg_fetch_add(int64_t* p, int64_t v) nogil
    void bg_relax(int spins) nogil
    void bg_stream_copy(void* dst, const void* src, size_t n) nogil
    void bg_stream_part(void* dst, const void* src, size_t n) nogil
    void bg_stream_fence() nogil
    void bg_stream_part_avx2(void* dst, const void* src, size_t n) nogil
    int bg_has_avx2() nogil


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
    BUFFERS = 5        # a thread's scratch buffers: PENDING and one copy
    SPARES = 4         # scratch blocks kept between runs (one a thread)
    HEADER = 64        # a scratch block's size is kept in its first bytes
    # Where run_chained's shared numbers live in Chain.sync, each on its own
    # cache line: the next chunk to take, the failure flag, what went through
    # scratch (children copied, chunks switched to writing in place, chunks
    # taken over), whether rows may be written twice, then one more than
    # where each chunk starts in the output (0 while unknown).
    SYNC_NEXT = 0
    SYNC_FAIL = 8
    SYNC_COPIED = 16
    SYNC_SWITCHED = 17
    SYNC_TAKEN = 18
    SYNC_REPEATABLE = 19
    SYNC_STARTS = 24
    # Pauses a thread waits before it takes a chunk over (about 50 us, the
    # time a chunk takes: a thread that is running ends its chunk first, so
    # only one that is away is taken over, and two threads seldom write the
    # same lines).
    TAKE_AFTER = 1024
    # Bytes of a copy from scratch streamed after each row the thread makes
    # (a row writes about 1 KB): see _drain.
    SPREAD = 1024


ctypedef struct _Chunk:
    # A chunk generated into scratch, waiting for its place in the output.
    uint8_t* kids
    int8_t* moves
    Py_ssize_t k, lo, stop     # rows lo..stop-1 are in scratch
    int buf                    # which of the thread's scratch buffers
    int64_t count
    int64_t* offs              # their ends in scratch (the output's offsets
                               # are written once the chunk's start is known)


ctypedef struct _Chain:
    RowWriter write_row
    void* ctx
    Py_ssize_t n, chunk, capacity
    int64_t* offsets
    uint8_t* children
    int8_t* moves
    int64_t* sync
    bint repeatable
    # The copy from scratch under way, streamed a piece after each row: where
    # it goes, what is left, and the scratch buffer it reads (not reused for
    # a new chunk before the copy is done; -1 none).
    char* cp_dst
    const char* cp_src
    size_t cp_left
    int cp_buf
    # The thread's scratch buffers (rows children each, chunk row ends) and
    # those free, the one freed last on top: a new chunk takes that one,
    # most likely still in cache.
    uint8_t* s_kids
    int8_t* s_moves
    int64_t* s_offs
    Py_ssize_t rows
    int spare[BUFFERS]
    int n_spare


# Bytes of a copy streamed after each row (0: a placed chunk is copied at
# once); changed only to measure (benchmarks/chain_cpu.py).
cdef size_t _spread = SPREAD
# The copy with 32-byte stores where the machine has AVX2 (2-3% less CPU
# for two threads on the corpus than SSE2's 16-byte ones).
cdef bint _wide = bg_has_avx2()


def _set_wide(bint on):
    """Copy from scratch with AVX2 stores where the machine has them (the
    default) or SSE2 ones; for measuring.  Returns whether AVX2 is used."""
    global _wide
    _wide = on and bg_has_avx2()
    return _wide


cdef inline void _release(_Chain* c, int buf) noexcept nogil:
    c.spare[c.n_spare] = buf
    c.n_spare += 1


cdef void _drain(_Chain* c, size_t most) noexcept nogil:
    # About ``most`` bytes of the copy under way, ending on a line of the
    # destination (a line streamed in two parts with rows made between them
    # reaches memory in parts, which costs many times a whole line); the
    # fence once the copy is done.  Two threads copying a chunk each at once
    # wait on memory, where the copy spread over the rows lets its stores
    # drain while the generator computes.
    cdef size_t k = c.cp_left
    if most < k:
        k = most - ((<size_t>c.cp_dst + most) & 63)     # most is 128 or more
    if _wide:
        bg_stream_part_avx2(c.cp_dst, c.cp_src, k)
    else:
        bg_stream_part(c.cp_dst, c.cp_src, k)
    c.cp_dst += k
    c.cp_src += k
    c.cp_left -= k
    if c.cp_left == 0:
        bg_stream_fence()
        _release(c, c.cp_buf)
        c.cp_buf = -1


cdef inline void _drain_all(_Chain* c) noexcept nogil:
    if c.cp_left:
        _drain(c, c.cp_left)


cdef inline void _claim(_Chain* c, _Chunk* p) noexcept nogil:
    # A free scratch buffer for the chunk p (the copy under way ended first
    # when it holds the last one).
    cdef int b
    if c.n_spare == 0:
        _drain_all(c)
    c.n_spare -= 1
    b = c.spare[c.n_spare]
    p.buf = b
    p.kids = c.s_kids + b * c.rows * BOARD_BYTES
    p.moves = c.s_moves + b * c.rows * MOVE_BYTES if c.s_moves != NULL else NULL
    p.offs = c.s_offs + b * c.chunk


cdef inline int _fail(_Chain* c, int why) noexcept nogil:
    if bg_load_acquire(&c.sync[SYNC_FAIL]) == 0:
        bg_store_release(&c.sync[SYNC_FAIL], why)
    return -1


cdef inline int _direct(_Chain* c, Py_ssize_t i, Py_ssize_t hi, int64_t* at, Py_ssize_t k) noexcept nogil:
    # Rows i..hi-1 of chunk k straight into the output from at: 1 when done
    # (the caller publishes the end), 0 when the output is full, 2 when
    # another thread took the chunk over and has published its end.
    cdef int m
    while i < hi:
        if c.capacity - at[0] < MAX_PLAYS:
            return 0
        if c.repeatable and bg_load_acquire(&c.sync[SYNC_STARTS + 1 + k]):
            return 2
        m = c.write_row(c.ctx, i, c.children + at[0] * BOARD_BYTES,
                        c.moves + at[0] * MOVE_BYTES if c.moves != NULL else NULL)
        at[0] += m
        c.offsets[i + 1] = at[0]
        i += 1
        if c.cp_left:
            _drain(c, _spread)
    return 1


cdef int _finish(_Chain* c, Py_ssize_t i, Py_ssize_t hi, int64_t at, Py_ssize_t k) noexcept nogil:
    # Rows i..hi-1 of chunk k in place from at, then its end published: 1
    # when this thread ended it, 2 when another thread had, -1 when the
    # output is full.
    cdef int r = _direct(c, i, hi, &at, k)
    if r == 0:
        return _fail(c, 1)
    if r == 1:
        bg_store_release(&c.sync[SYNC_STARTS + 1 + k], at + 1)
    return r


cdef int _take_over(_Chain* c, Py_ssize_t k) noexcept nogil:
    # Chunk k waits for a chunk before it whose thread has not ended it
    # (descheduled, most likely): write that chunk in place here.  Its rows
    # are written the same by any thread, and its owner drops its own copy
    # once it sees the end published.  1 when this thread wrote it, 0 when
    # there was nothing to take, -1 when the output is full.
    cdef Py_ssize_t j = k - 1
    cdef int64_t at
    cdef int r
    while j > 0 and bg_load_acquire(&c.sync[SYNC_STARTS + j]) == 0:
        j -= 1
    at = bg_load_acquire(&c.sync[SYNC_STARTS + j]) - 1
    if at < 0 or bg_load_acquire(&c.sync[SYNC_STARTS + 1 + j]):
        return 0
    r = _finish(c, j * c.chunk, min(c.n, (j + 1) * c.chunk), at, j)
    if r < 0:
        return r
    if r == 1:
        bg_fetch_add(&c.sync[SYNC_TAKEN], 1)
        return 1
    return 0


cdef inline void _copy_in(_Chain* c, _Chunk* p, int64_t at, int64_t count) noexcept nogil:
    # The first count children of the chunk p's scratch (rows p.lo..p.stop-1)
    # into the output from at, their row ends with them.
    cdef Py_ssize_t j
    bg_fetch_add(&c.sync[SYNC_COPIED], count)
    if c.moves != NULL:
        bg_stream_copy(c.moves + at * MOVE_BYTES, p.moves, count * MOVE_BYTES)
    if _spread and count:
        # Queued, streamed after the rows this thread makes next.
        _drain_all(c)
        c.cp_dst = <char*>(c.children + at * BOARD_BYTES)
        c.cp_src = <const char*>p.kids
        c.cp_left = count * BOARD_BYTES
        c.cp_buf = p.buf
    else:
        bg_stream_copy(c.children + at * BOARD_BYTES, p.kids, count * BOARD_BYTES)
        _release(c, p.buf)
    for j in range(p.lo + 1, p.stop + 1):
        c.offsets[j] = p.offs[j - p.lo - 1] + at


cdef int _place(_Chain* c, _Chunk* p, bint wait) noexcept nogil:
    """Copy a scratch chunk to its place once the chunks before it are
    counted: 1 when placed, 0 when not yet (without ``wait``), -1 when the
    run failed."""
    cdef int spins = 0, r
    cdef int64_t base
    cdef Py_ssize_t hi = min(c.n, p.lo + c.chunk)
    while True:
        base = bg_load_acquire(&c.sync[SYNC_STARTS + p.k]) - 1
        if base >= 0:
            break
        if bg_load_acquire(&c.sync[SYNC_FAIL]):
            return -1
        if not wait:
            return 0
        if c.cp_left:
            _drain(c, _spread)  # the copy under way, while waiting
            continue
        if c.repeatable:
            if spins >= TAKE_AFTER:
                r = _take_over(c, p.k)
                if r < 0:
                    return -1
                # The owner of the chunk just taken is away: take the next
                # one it holds (if any) at once.
                spins = TAKE_AFTER if r == 1 else 0
                continue
            bg_relax(0)         # a pause, no yield: the chunk is taken over soon
            spins += 1
            continue
        bg_relax(spins)
        spins += 1
    if c.repeatable and bg_load_acquire(&c.sync[SYNC_STARTS + 1 + p.k]):
        _release(c, p.buf)
        return 1        # taken over: already in place
    if c.capacity - base < p.count:
        return _fail(c, 1)
    if p.stop == hi:
        # Counted: the next chunk may place itself while this one copies.
        bg_store_release(&c.sync[SYNC_STARTS + 1 + p.k], base + p.count + 1)
    _copy_in(c, p, base, p.count)
    if p.stop < hi:
        # The scratch filled up: the rest of the chunk goes straight in.
        if _finish(c, p.stop, hi, base + p.count, p.k) < 0:
            return -1
    return 1


cdef int _switch(_Chain* c, _Chunk* p, int64_t at) noexcept nogil:
    # The chunk p's rows p.lo..p.stop-1 are in scratch and its start is
    # known (at): copy them in, write the rest of the chunk in place and
    # publish its end.  0, or -1 when the output is full.
    cdef Py_ssize_t hi = min(c.n, p.lo + c.chunk)
    cdef int64_t count = p.offs[p.stop - p.lo - 1] if p.stop > p.lo else 0
    if c.capacity - at < count:
        return _fail(c, 1)
    _copy_in(c, p, at, count)
    bg_fetch_add(&c.sync[SYNC_SWITCHED], 1)
    return -1 if _finish(c, p.stop, hi, at + count, p.k) < 0 else 0


cdef int _place_all(_Chain* c, _Chunk* held, int* first, int* pending) noexcept nogil:
    # Every chunk held, oldest first, waiting as needed: 0, or -1 on failure.
    while pending[0]:
        if _place(c, &held[first[0]], True) < 0:
            return -1
        first[0] = (first[0] + 1) % PENDING
        pending[0] -= 1
    return 0


# Scratch blocks kept between runs: a fresh one (4-5 MB at 512 pairs a
# chunk, five buffers of a chunk at 24 children a pair, mostly never
# touched) is mapped a page at a time, hundreds of page faults for each
# thread of each call that had to take one.  Taken and given back with atomic swaps, without the GIL.
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


# Whether a chunk may switch from scratch to writing in place once the chunk
# before it is counted (as above): off, as the spread copy makes a child in
# scratch as cheap as one in place; on to measure (benchmarks/chain_cpu.py).
cdef bint _switching = False


def set_spreading(size_t most):
    """Stream ``most`` bytes of a copy from scratch after each row a thread
    makes (the default, 1024), or copy a placed chunk at once (0); for
    measuring the scheme, the output is the same either way."""
    global _spread
    _spread = most if most == 0 or most >= 128 else 128


def set_switching(bint on):
    """Let chunks begun in scratch finish in place once the chunk before
    them is counted, or not (the default); for measuring the scheme, the
    output is the same either way."""
    global _switching
    _switching = on


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
    are counted (with ``set_switching(True)``, when that happens while it
    is being made, the rest is written in place).  The copy is streamed a piece after each row the
    thread makes next (``set_spreading``); a new scratch chunk takes the
    buffer freed last, most likely still in cache.  A thread holds up to
    PENDING such chunks before it waits, so threads rarely wait for one another; in a ``repeatable`` run
    (see Chain) a waiting thread writes the chunk it waits on itself.
    """
    cdef _Chain c
    cdef _Chunk held[PENDING]
    cdef _Chunk* p
    cdef Py_ssize_t n_chunks = (n + chunk - 1) // chunk, rows = chunk * 24 + MAX_PLAYS
    cdef Py_ssize_t k, lo, hi, i, q
    cdef int64_t at, local
    cdef int first = 0, pending = 0, m, r, status = 0
    cdef size_t kid_bytes = BUFFERS * rows * BOARD_BYTES
    cdef size_t move_bytes = BUFFERS * rows * MOVE_BYTES if moves != NULL else 0
    cdef char* block = _take_scratch(kid_bytes + move_bytes + BUFFERS * chunk * sizeof(int64_t))
    cdef uint8_t* scratch = <uint8_t*>(block + HEADER) if block != NULL else NULL
    cdef int8_t* scratch_moves = <int8_t*>(block + HEADER + kid_bytes) if block != NULL and moves != NULL else NULL
    cdef int64_t* scratch_offs = <int64_t*>(block + HEADER + kid_bytes + move_bytes) if block != NULL else NULL
    cdef bint dropped
    c.write_row = write_row
    c.ctx = ctx
    c.n = n
    c.chunk = chunk
    c.capacity = capacity
    c.offsets = offsets
    c.children = children
    c.moves = moves
    c.sync = sync
    c.repeatable = bg_load_acquire(&sync[SYNC_REPEATABLE]) != 0
    c.cp_left = 0
    c.cp_buf = -1
    if block == NULL:
        _fail(&c, 2)
        return 2
    c.s_kids = scratch
    c.s_moves = scratch_moves
    c.s_offs = scratch_offs
    c.rows = rows
    c.n_spare = BUFFERS
    for q in range(BUFFERS):
        c.spare[q] = BUFFERS - 1 - q
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
            r = _direct(&c, lo, hi, &at, k)
            if r == 0:
                status = _fail(&c, 1)
                break
            if r == 1:
                bg_store_release(&sync[SYNC_STARTS + 1 + k], at + 1)
            continue
        p = &held[(first + pending) % PENDING]
        _claim(&c, p)
        pending += 1
        at = -1
        r = 0
        dropped = False
        p.k = k
        p.lo = lo
        local = 0
        i = lo
        while i < hi and rows - local >= MAX_PLAYS:
            m = write_row(ctx, i, p.kids + local * BOARD_BYTES,
                          p.moves + local * MOVE_BYTES if moves != NULL else NULL)
            local += m
            p.offs[i - lo] = local
            i += 1
            if c.cp_left:
                _drain(&c, _spread)
            if c.repeatable and bg_load_acquire(&sync[SYNC_STARTS + 1 + k]):
                dropped = True      # taken over while this thread was away
                break
            if i < hi and _switching:
                # Once the chunk before is counted, what is in scratch goes in
                # and the rest is written in place (two threads keep about
                # half a chunk apart, so this copies about half of what
                # placing the whole chunk would); older chunks held are
                # placed as soon as they can be, for this one to switch.
                while pending > 1:
                    r = _place(&c, &held[first], False)
                    if r != 1:
                        break
                    first = (first + 1) % PENDING
                    pending -= 1
                if r < 0:
                    status = -1
                    break
                if pending == 1:
                    at = bg_load_acquire(&sync[SYNC_STARTS + k]) - 1
                    if at >= 0:
                        break
        if status:
            break
        if dropped:
            _release(&c, p.buf)
            pending -= 1            # the newest held: its slot is free again
            continue
        p.stop = i
        if at >= 0:
            status = _switch(&c, p, at)
            pending = 0
            continue
        p.count = local
        if i < hi:
            # Only this chunk's place lets it go on: place everything held.
            status = _place_all(&c, held, &first, &pending)
    if status == 0:
        status = _place_all(&c, held, &first, &pending)
    _drain_all(&c)
    _give_scratch(block)
    if status or bg_load_acquire(&sync[SYNC_FAIL]):
        return <int>bg_load_acquire(&sync[SYNC_FAIL])
    return 0


cdef class Chain:
    """The shared state of one ``run_chained`` run over ``n`` rows in chunks
    of ``chunk``: made fresh for each run, given to every thread.

    ``repeatable``: the row writer writes nothing but the row's children
    (the same bytes whichever thread writes them, however often), so a
    thread that waits on a chunk whose thread is away may write it itself.

    >>> Chain(1000, 256, repeatable=True).taken
    0
    """

    def __cinit__(self, Py_ssize_t n, Py_ssize_t chunk, bint repeatable=False):
        if n < 0 or chunk < 1 or n > (1 << 48):
            raise ValueError("n must be 0 to 2**48 and chunk >= 1")
        self.n = n
        self.chunk = chunk
        # Zeroed memory costs nothing until touched: starts are kept plus one.
        self.sync = <int64_t*>calloc(SYNC_STARTS + n // chunk + 2, sizeof(int64_t))
        if self.sync == NULL:
            raise MemoryError()
        self.sync[SYNC_STARTS] = 1
        # Rows that write the same wherever and however often they are
        # written (nothing but their children) let a waiting thread take
        # over the chunk of a thread that is away.
        self.sync[SYNC_REPEATABLE] = repeatable

    def __dealloc__(self):
        free(self.sync)

    @property
    def copied(self):
        """Children of the run that went through a thread's scratch (and
        were copied into the output); the rest were written in place."""
        return bg_load_acquire(&self.sync[SYNC_COPIED])

    @property
    def switched(self):
        """Chunks of the run begun in scratch and finished in place (the
        chunk before them was counted while they were being made)."""
        return bg_load_acquire(&self.sync[SYNC_SWITCHED])

    @property
    def taken(self):
        """Chunks of the run that a waiting thread wrote itself because
        the thread that had taken them had not ended them (``repeatable``
        runs only)."""
        return bg_load_acquire(&self.sync[SYNC_TAKEN])

    @property
    def status(self):
        """0, or why the run stopped: 1 the output was too small, 2 memory."""
        return bg_load_acquire(&self.sync[SYNC_FAIL])


# A row writer for tests of the scheduling itself: row i writes 1 + 7i % 5
# children, child j of it all bytes (i + j) % 251; ``gate`` holds threads at
# chosen rows so a test can make a given interleaving happen (see
# tests/test_chain.py): the first thread to write row gate[0] waits until
# row gate[1] is written (gate[2] set), the first to write row gate[3] until
# chunk gate[5] - 1 is counted (its end published); gate[4] is set if a
# wait timed out; gate[6] and gate[7] count the writes of those two rows.
ctypedef struct _TestRows:
    int64_t* gate
    int64_t* sync


cdef bint _wait_until(int64_t* p, int64_t* timed_out) noexcept nogil:
    # Until *p is set, or (some seconds of yielding) timed_out is.
    cdef int64_t tries
    for tries in range(20000000):
        if bg_load_acquire(p) != 0:
            return True
        bg_relax(<int>min(tries, 64))
    bg_store_release(timed_out, 1)
    return False


cdef int _test_row(void* ctx, Py_ssize_t i, uint8_t* children, int8_t* moves) noexcept nogil:
    cdef _TestRows* t = <_TestRows*>ctx
    cdef int j, m = 1 + (7 * i) % 5
    if i == t.gate[0] and bg_fetch_add(&t.gate[6], 1) == 0:
        _wait_until(&t.gate[2], &t.gate[4])
    if i == t.gate[3] and bg_fetch_add(&t.gate[7], 1) == 0:
        _wait_until(&t.sync[SYNC_STARTS + t.gate[5]], &t.gate[4])
    for j in range(m):
        memset(children + j * BOARD_BYTES, (i + j) % 251, BOARD_BYTES)
    if i == t.gate[1]:
        bg_store_release(&t.gate[2], 1)
    return m


def _run_test_rows(Chain chain, int64_t[::1] offsets, uint8_t[:, :, ::1] children, int64_t[::1] gate):
    """One thread's share of ``chain``'s rows written by the test writer
    above; returns run_chained's status.  For tests only."""
    cdef _TestRows t
    cdef int status
    if gate.shape[0] != 8 or offsets.shape[0] != chain.n + 1 or children.shape[1] * children.shape[2] != BOARD_BYTES:
        raise ValueError("gate must have 8 numbers, offsets n + 1, children rows of 50 bytes")
    if not 0 < gate[5] <= chain.n // chain.chunk + 1:
        raise ValueError("gate[5] must be a chunk end's index")
    t.gate = &gate[0]
    t.sync = chain.sync
    with nogil:
        status = run_chained(_test_row, &t, chain.n, chain.chunk, &offsets[0], &children[0, 0, 0], NULL,
                             children.shape[0], chain.sync)
    return status
