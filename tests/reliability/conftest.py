"""The in-process stand-in engine and config writer of tests/experiments, shared here."""
from tests.experiments.conftest import fake_engine, write_config  # noqa: F401
