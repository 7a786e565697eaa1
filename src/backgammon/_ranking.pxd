# The pruning searches' ranking (gnubg's FindBestMoveInEval keeps the few
# plays its pruning network likes best): one insertion routine for every
# kernel that prunes, so that ties break the same way everywhere.


cdef inline int keep_lowest(int* top, float* score, int kept, int keep, int item, float s) noexcept nogil:
    """Offer ``item`` with score ``s`` to ``top``/``score``, which hold the
    ``kept`` lowest scores offered so far, lowest first; an equal score
    goes after those already there (the first offered of equals ranks
    first).  Returns the new count (at most ``keep``, at least 1)."""
    cdef int j
    if kept < keep:
        j = kept
        kept += 1
    elif s < score[keep - 1]:
        j = keep - 1
    else:
        return kept
    while j > 0 and score[j - 1] > s:
        top[j] = top[j - 1]
        score[j] = score[j - 1]
        j -= 1
    top[j] = item
    score[j] = s
    return kept


cdef inline void sort_ascending(int* items, int n) noexcept nogil:
    """Insertion sort of at most a few kept indices (back into the move
    generator's order)."""
    cdef int i, j, k
    for i in range(1, n):
        k = items[i]
        j = i
        while j > 0 and items[j - 1] > k:
            items[j] = items[j - 1]
            j -= 1
        items[j] = k
