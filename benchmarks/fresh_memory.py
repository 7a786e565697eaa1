"""What fresh memory costs on this machine: the part of a fresh process's
first large ``batch.legal_positions`` call that later calls do not pay.

    python benchmarks/fresh_memory.py [--mib 94] [--pause 4] [--rounds 3]

Maps ``--mib`` MiB (94 MiB: the children of 100,000 random-game pairs)
with huge pages and then with small ones (``madvise``: MADV_HUGEPAGE or
MADV_NOHUGEPAGE, then MADV_POPULATE_WRITE, which makes the kernel zero
every page now), four times each: at once, again just after unmapping the
first, again after a pause of ``--pause`` seconds, and again at once; and
writes the same memory once more (a later call's stores). Times are the
thread's CPU time, which other jobs on the machine do not add to.

On a virtual machine whose balloon device reports free memory to the host
(virtio-balloon's free page reporting, order 9 = 2 MiB blocks, about two
seconds after they are freed), memory freed more than that ago has been
given back to the host, which must find and zero it again on first touch:
the third mapping then costs many times the others.  Linux only
(``madvise`` flags), Python 3.8+.
"""
from __future__ import annotations

import argparse
import mmap
import time

MADV_POPULATE_WRITE = 23        # Linux 5.14; not in Python 3.11's mmap module
HUGE = 1 << 21


def _map_once(size: int, huge: bool) -> tuple[float, float]:
    """CPU ms to map and zero ``size`` bytes, then to write them again."""
    # Private, as malloc's memory (a shared anonymous map is shmem, which
    # has its own huge page setting).
    m = mmap.mmap(-1, size + HUGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    try:
        # Offsets within the mapping must be page-aligned; the kernel puts
        # a huge page only where a whole 2 MiB range lies in the mapping.
        m.madvise(mmap.MADV_HUGEPAGE if huge else mmap.MADV_NOHUGEPAGE)
        t0 = time.thread_time()
        m.madvise(MADV_POPULATE_WRITE)
        t1 = time.thread_time()
        chunk = b"\1" * HUGE
        for at in range(0, size, HUGE):
            m[at:at + HUGE] = chunk
        t2 = time.thread_time()
        return 1e3 * (t1 - t0), 1e3 * (t2 - t1)
    finally:
        m.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mib", type=int, default=94)
    ap.add_argument("--pause", type=float, default=4.0)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    size = args.mib << 20
    for _ in range(args.rounds):
        for huge in (True, False):
            first, write = _map_once(size, huge)
            again, _ = _map_once(size, huge)
            time.sleep(args.pause)
            paused, _ = _map_once(size, huge)
            last, _ = _map_once(size, huge)
            print(f"{'huge' if huge else 'small'} pages, {args.mib} MiB mapped and zeroed (CPU ms): "
                  f"{first:.1f}, at once again {again:.1f}, after {args.pause:g} s {paused:.1f}, "
                  f"at once again {last:.1f}; writing it once more {write:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
