# cython: language_level=3, boundscheck=False, wraparound=False, auto_pickle=False
"""Memory for batch results, reused once nothing refers to it any more.

Fresh memory from the operating system is zeroed a page at a time when it is
first written, and for batch move generation that costs about half as much
as generating the results that fill it.  A ``Block`` gives its memory back
to a small pool when the last array viewing it is gone (its deallocation,
so a view anywhere keeps it), and the next block of a similar size is taken
from there, already mapped.  At most KEEP blocks of at most LIMIT bytes each
are kept, the largest; ``release()`` frees them.

A result that fills a small part of a large block gives the unused pages
back to the system (``trim``) instead of being copied into a smaller
array: copying is work on one core, and on a large batch it was the part
of a threaded call that did not scale.
"""
import numpy as np

from libc.stdlib cimport malloc, free
from cpython.buffer cimport PyBUF_FORMAT

cdef extern from *:
    """
    #include <stdlib.h>
    #if defined(__linux__)
    #include <stdint.h>
    #include <sys/mman.h>
    #endif
    /* Ask Linux for 2 MiB pages (as numpy does for its large arrays): far
       fewer faults on first touch; and give back the pages of a range that
       is no longer needed (they read as zeros if touched again). */
    static void bg_discard(void* p, size_t n) {
    #if defined(__linux__) && defined(MADV_DONTNEED)
        uintptr_t start = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
        uintptr_t end = ((uintptr_t)p + n) & ~(uintptr_t)4095;
        if (end > start) madvise((void*)start, end - start, MADV_DONTNEED);
    #else
        (void)p; (void)n;
    #endif
    }
    /* Memory for free() starting on an ``align`` boundary (POSIX); plain
       malloc where there is no posix_memalign (Windows). */
    static void* bg_alloc_aligned(size_t n, size_t align) {
    #if defined(_WIN32)
        (void)align;
        return malloc(n);
    #else
        void* p = NULL;
        return posix_memalign(&p, align, n) == 0 ? p : NULL;
    #endif
    }
    /* Map the pages of a range for writing without changing what they hold
       (Linux 5.14+; elsewhere nothing: the first write maps them). */
    static void bg_populate(void* p, size_t n) {
    #if defined(__linux__)
    #ifndef MADV_POPULATE_WRITE
    #define MADV_POPULATE_WRITE 23
    #endif
        uintptr_t start = (uintptr_t)p & ~(uintptr_t)4095;
        uintptr_t end = ((uintptr_t)p + n + 4095) & ~(uintptr_t)4095;
        if (end > start) madvise((void*)start, end - start, MADV_POPULATE_WRITE);
    #else
        (void)p; (void)n;
    #endif
    }
    static void bg_advise_huge(void* p, size_t n) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        uintptr_t start = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
        uintptr_t end = ((uintptr_t)p + n) & ~(uintptr_t)4095;
        if (end > start) madvise((void*)start, end - start, MADV_HUGEPAGE);
    #else
        (void)p; (void)n;
    #endif
    }
    """
    void bg_advise_huge(void* p, size_t n)
    void* bg_alloc_aligned(size_t n, size_t align)
    void bg_discard(void* p, size_t n)
    void bg_populate(void* p, size_t n) nogil

cdef enum:
    # A loop holds one result while making the next: two blocks each for
    # the offsets, the results and their move lists.
    KEEP = 6

MOST_KEPT = KEEP

cdef Py_ssize_t LIMIT = 1 << 31        # bytes kept at most per block (2 GiB)
cdef Py_ssize_t TRIM_FROM = 1 << 22    # blocks at least this large give back what a result leaves unused
# Blocks at least one huge page large start on a huge page boundary: memory
# from malloc starts 16 bytes into a mapping, so its first and last partial
# 2 MiB took 4 KiB pages (up to a thousand faults a block), and ``empty``
# pools arrays from this size on (a 2.4 MB offsets array took 586 faults).
cdef Py_ssize_t HUGE = 1 << 21
cdef char* _kept[KEEP]
cdef Py_ssize_t _kept_size[KEEP]
cdef int _n_kept = 0
cdef char* _format = b"B"      # unsigned bytes


cdef class Block:
    """``size`` bytes of writable memory exposed through the buffer protocol.

    Not picklable or copyable: a copy would own memory it did not allocate.
    """
    cdef char* data
    cdef Py_ssize_t size
    cdef Py_ssize_t itemsize
    cdef bint fresh        # new memory, never written: populate() maps it

    def __getbuffer__(self, Py_buffer* view, int flags):
        view.buf = self.data
        view.obj = self
        view.len = self.size
        view.readonly = 0
        view.itemsize = 1
        view.format = _format if flags & PyBUF_FORMAT else NULL
        view.ndim = 1
        view.shape = &self.size
        view.strides = &self.itemsize
        view.suboffsets = NULL
        view.internal = NULL

    def __releasebuffer__(self, Py_buffer* view):
        pass

    def __dealloc__(self):
        _give_back(self.data, self.size)

    def trim(self, Py_ssize_t used):
        """Give the pages past the first ``used`` bytes back to the system
        (the block keeps its size; they read as zeros if written again)."""
        if self.size >= TRIM_FROM and 0 <= used < self.size:
            bg_discard(self.data + used, self.size - used)


cdef Py_ssize_t _kept_bytes():
    cdef Py_ssize_t total = 0
    cdef int i
    for i in range(_n_kept):
        total += _kept_size[i]
    return total


cdef void _give_back(char* data, Py_ssize_t size):
    global _n_kept
    if data == NULL:
        return
    cdef int i, smallest = 0
    if size > LIMIT:
        free(data)
        return
    if _n_kept == KEEP:
        # Keep the larger blocks: small ones are cheap to map afresh.
        for i in range(1, KEEP):
            if _kept_size[i] < _kept_size[smallest]:
                smallest = i
        if _kept_size[smallest] >= size:
            free(data)
            return
        free(_kept[smallest])
        _n_kept -= 1
        _kept[smallest] = _kept[_n_kept]
        _kept_size[smallest] = _kept_size[_n_kept]
    _kept[_n_kept] = data
    _kept_size[_n_kept] = size
    _n_kept += 1


def block(Py_ssize_t size):
    """A Block of at least ``size`` bytes (contents undefined), reusing kept
    memory that is large enough but not more than twice as large."""
    global _n_kept
    cdef Block b = Block.__new__(Block)
    cdef int i, best = -1
    if size < 1:
        size = 1
    for i in range(_n_kept):
        if size <= _kept_size[i] <= 2 * size and (best < 0 or _kept_size[i] < _kept_size[best]):
            best = i
    if best >= 0:
        b.data = _kept[best]
        b.size = _kept_size[best]
        _n_kept -= 1
        _kept[best] = _kept[_n_kept]
        _kept_size[best] = _kept_size[_n_kept]
    else:
        b.data = _allocate(size)
        if b.data == NULL:
            raise MemoryError(f"cannot allocate {size} bytes")
        b.size = size
        b.fresh = True
        bg_advise_huge(b.data, size)
    b.itemsize = 1
    return b


cdef char* _allocate(Py_ssize_t size):
    if size < HUGE:
        return <char*>malloc(size)
    return <char*>bg_alloc_aligned(size, HUGE)


def kept_bytes():
    """Bytes held for reuse."""
    return _kept_bytes()


def release():
    """Free the memory held for reuse."""
    global _n_kept
    while _n_kept:
        _n_kept -= 1
        free(_kept[_n_kept])


def empty(shape, dtype):
    """A C-contiguous array of ``shape`` and ``dtype`` (contents undefined)
    in a Block when it is large (``array.base`` chain ends in it), else a
    fresh numpy array: batch results that loops make again and again."""
    dt = np.dtype(dtype)
    count = 1
    for k in shape:
        count *= k
    if count * dt.itemsize < HUGE:
        return np.empty(shape, dtype=dt)
    b = block(count * dt.itemsize)
    return np.frombuffer(b, dtype=dt, count=count).reshape(shape)


def trim(array, Py_ssize_t rows):
    """The first ``rows`` rows of an array made by ``empty``, as a view;
    when they fill less than half of its block the rest of the block's
    pages go back to the system (see ``Block.trim``)."""
    view = array[:rows]
    base = _block_of(array)
    if base is not None and rows * 2 < len(array):
        (<Block>base).trim(_used(array, rows, <Block>base))
    return view


def populate(array, Py_ssize_t rows, int part, int parts):
    """Map part ``part`` of ``parts`` of the first ``rows`` rows of an array
    made by ``empty``, when its block is new memory; without the GIL.

    Fresh memory is mapped (and zeroed) by the kernel on first write.  When
    threads fill one output chunk after chunk they write the same 2 MiB
    page at once and fault on it together; each mapping its own part first
    spreads that work over the threads.  The contents do not change, so a
    thread may already be writing there."""
    base = _block_of(array)
    if base is None or not (<Block>base).fresh or parts < 1 or not 0 <= part < parts:
        return
    rows = min(rows, len(array))
    cdef Py_ssize_t start = _used(array, 0, <Block>base)
    cdef Py_ssize_t n = rows * array.strides[0]
    # Parts end on 2 MiB boundaries so no huge page is split between two.
    cdef Py_ssize_t lo = (n * part // parts) & ~(HUGE - 1)
    cdef Py_ssize_t hi = n if part == parts - 1 else (n * (part + 1) // parts) & ~(HUGE - 1)
    cdef char* p = (<Block>base).data + start
    if hi > lo:
        with nogil:
            bg_populate(p + lo, hi - lo)


cdef object _block_of(array):
    # The Block under an array made by ``empty``, else None: its base chain
    # goes through the memoryview numpy.frombuffer takes (``.obj``).
    base = array
    while base is not None and not isinstance(base, Block):
        base = getattr(base, "obj", None) if isinstance(base, memoryview) else getattr(base, "base", None)
    return base


cdef Py_ssize_t _used(array, Py_ssize_t rows, Block b):
    # Bytes of the block up to the end of the first ``rows`` rows.
    cdef Py_ssize_t start = <Py_ssize_t>array.__array_interface__["data"][0] - <Py_ssize_t>b.data
    return start + rows * array.strides[0]
