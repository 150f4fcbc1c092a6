"""`python fake_cli.py ARGS...`: the balancelab command line with Evolversi's engine replaced
by the in-process stand-in of tests/experiments (cheap, deterministic), optionally slowed
down per chunk (BALANCELAB_TEST_CHUNK_SLEEP seconds): for tests that signal or starve a
running command in a subprocess."""
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from simcore.games import get_game  # noqa: E402
from tests.experiments.conftest import fake_play_batch  # noqa: E402

PAUSE = float(os.environ.get("BALANCELAB_TEST_CHUNK_SLEEP", "0"))


def play_batch(self, *args, **kwargs):
    time.sleep(PAUSE)
    return fake_play_batch(*args, **kwargs)


type(get_game("evolversi")).play_batch = play_batch

if __name__ == "__main__":
    from experiments.cli import main
    sys.exit(main(sys.argv[1:]))
