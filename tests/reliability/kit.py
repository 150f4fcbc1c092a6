"""What the reliability tests share: a one-point sweep config small enough for the stand-in engine."""

ONE_POINT = 'ruleset = "evolversi"\nplayers = 3\ngames = 60\nseed = 5\nbatch_size = 20\n'


# A Python command run through PEAK writes its own peak memory (KiB: VmHWM, the high-water mark
# of the process's own memory) to a file at exit. Neither the test's RUSAGE_CHILDREN (every
# child the test worker ever had) nor the child's ru_maxrss (Linux keeps it across execve, so
# it starts at the size of the forking test worker) measures the command itself.
PEAK = ("import atexit, re, runpy, sys\n"
        "out = sys.argv.pop(1)\n"
        "def peak():\n"
        "    status = open('/proc/self/status').read()\n"
        "    open(out, 'w').write(re.search(r'VmHWM:\\s*(\\d+)', status).group(1))\n"
        "atexit.register(peak)\n"
        "sys.argv.pop(0)\n"
        "if sys.argv[0] == '-m':\n"
        "    sys.argv.pop(0)\n"
        "    runpy.run_module(sys.argv[0], run_name='__main__', alter_sys=True)\n"
        "else:\n"
        "    runpy.run_path(sys.argv[0], run_name='__main__')\n")


def with_peak(argv: list, peak_file) -> list:
    """`[python, script, *args]` or `[python, -m, module, *args]` run so that its peak memory
    lands in `peak_file`."""
    python, *rest = argv
    return [python, "-c", PEAK, str(peak_file), *rest]


def peak_kib(peak_file) -> int:
    from pathlib import Path
    return int(Path(peak_file).read_text())
