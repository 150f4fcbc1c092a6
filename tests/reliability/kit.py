"""What the reliability tests share: a one-point sweep config small enough for the stand-in engine."""

ONE_POINT = 'ruleset = "evolversi"\nplayers = 3\ngames = 60\nseed = 5\nbatch_size = 20\n'


# A Python command run through PEAK writes its own peak memory (KiB: the larger of the process
# and its own children) to a file at exit: RUSAGE_CHILDREN in the test process would also count
# every other child that test worker ever had.
PEAK = ("import atexit, resource, runpy, sys\n"
        "out = sys.argv.pop(1)\n"
        "atexit.register(lambda: open(out, 'w').write(str(max(resource.getrusage(w).ru_maxrss\n"
        "    for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)))))\n"
        "sys.argv.pop(0)\n"
        "runpy.run_path(sys.argv[0], run_name='__main__')\n")


def with_peak(argv: list, peak_file) -> list:
    """`[python, script, *args]` run so that its peak memory lands in `peak_file`."""
    python, script, *args = argv
    return [python, "-c", PEAK, str(peak_file), script, *args]


def peak_kib(peak_file) -> int:
    from pathlib import Path
    return int(Path(peak_file).read_text())
