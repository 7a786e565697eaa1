"""The commands on match files: ``analyse`` and ``convert``."""
from __future__ import annotations

import os
import sys

from .common import (CommandError, check_input, check_output, partial_advice, show_progress, usage,
                     write_atomically)

__all__ = ["run_analyse", "run_convert"]


def _match_format(path: str, source_format=None, data: bytes | None = None):
    """The format of a match file: given, else told by its content (once
    read), else by its name."""
    from ..formats import Format, detect, for_path, get, match_formats
    fmt: Format | None
    if source_format:
        fmt = get(source_format)
    elif data is not None:
        fmt = detect(data, path)        # by content, else by name
    else:
        fmt = for_path(path)
    if fmt is None or fmt.kind != "match":
        names = ", ".join(f.name for f in match_formats())
        raise usage(f"cannot tell the format of {path} from its content or name; give --from ({names})")
    return fmt


def _check_match_input(path: str, source_format=None) -> None:
    """Refuse, before any work, a match file that cannot be read; a missing
    one whose name tells no format either is a usage error saying so."""
    if not source_format and not os.path.exists(path):
        _match_format(path)
    check_input(path)


def _file_bytes(path: str) -> bytes:
    """The input file's bytes, by the readers' own rule (at most MAX_BYTES:
    ``analyse /dev/zero`` read on until memory ran out)."""
    from ..formats.source import read_path
    try:
        return read_path(path)
    except ValueError as e:
        raise CommandError(str(e)) from None


def _read_match_file(path: str, source_format=None, data: bytes | None = None, **options):
    """A match file's record, its format given, or told by its content or
    name; ``data`` its bytes if read already (a pipe gives them once)."""
    data = _file_bytes(path) if data is None else data
    fmt = _match_format(path, source_format, data)
    try:
        return fmt.read(data, **options)
    except fmt.error as e:
        raise CommandError(f"{path}: {partial_advice(str(e))}") from None


def run_analyse(args) -> int:
    from ..analysis import THRESHOLDS, analyse
    from ..rollouts import RolloutSettings
    _check_match_input(args.file, args.source_format)
    if args.sgf:
        check_output(args.sgf, "--sgf")
    record = _read_match_file(args.file, args.source_format, partial=True)
    progress = show_progress(args)
    # Each rollout of the candidates of an error shows its own games' progress.
    rollout = RolloutSettings(games=args.rollout_games, seed=args.seed, workers=args.workers,
                              truncate=args.rollout_truncate, progress=progress) if args.rollout else None
    if progress:
        games = len(record.games)
        print(f"Analysing {args.file}: {games} game{'s' if games != 1 else ''}, checker play at {args.ply}-ply, "
              f"cube decisions at {args.ply if args.cube_ply is None else args.cube_ply}-ply"
              + (f", errors of {THRESHOLDS[1]} or more rolled out ({args.rollout_games} games a candidate)"
                 if args.rollout else ""), file=sys.stderr, flush=True)
    result = analyse(record, ply=args.ply, cube_ply=args.cube_ply, rollout=rollout, workers=args.workers,
                     progress=progress)
    if args.sgf:
        from ..formats.sgf import write_sgf
        write_atomically(args.sgf, write_sgf(record, analysis=result))
    if args.json:
        print(result.to_json())
    else:
        print(result.report(threshold=args.threshold, diagrams=not args.no_diagrams), end="")
    return 0


def run_convert(args) -> int:
    import inspect
    from ..formats import for_path, get, match_formats
    _check_match_input(args.input, args.source_format)
    target = get(args.to) if args.to else for_path(args.output)
    names = ", ".join(f.name for f in match_formats())
    data = _file_bytes(args.input)          # read once: a pipe (/dev/stdin) gives its bytes once
    source = _match_format(args.input, args.source_format, data)
    if target is None or target.write is None:
        writable = ", ".join(f.name for f in match_formats() if f.write is not None)
        raise usage(f"cannot write {args.output}: give a name ending in .mat or .sgf, or --to ({writable})")
    if source.kind != "match" or target.kind != "match":
        raise usage(f"convert reads and writes match files ({names})")
    options = {"partial": args.partial}
    if args.strict:
        if "strict" not in inspect.signature(source.read).parameters:
            raise usage(f"--strict: the {source.name} reader has no warnings to make errors of")
        options["strict"] = True
    check_input(args.input)
    check_output(args.output)
    record = _read_match_file(args.input, source.name, data, **options)
    for w in getattr(record, "warnings", ()):
        print(f"{args.input}: warning: {w}", file=sys.stderr)
    write_atomically(args.output, target.write(record))     # OGXM is bytes
    games = len(record.games)
    print(f"{args.input} -> {args.output}: {games} game{'s' if games != 1 else ''}"
          f"{', ' + str(len(record.warnings)) + ' warnings' if getattr(record, 'warnings', ()) else ''}")
    return 0
