"""Evolution (North Star Games) and its cs4500 course profile.

Modules: schema (GAME_DATA: data/params.toml, data/variants/*.toml, data/cards.csv),
traits (the 17-trait vocabulary), reference (one game, plain Python: the oracle), the
compiled batch engine (state: the batch arrays; kernels: the rules; engine: the steps that
ask bots, built per set of bots by jit; decisions: a bot's batch face; rules: play_batch and each step from Python;
packed: what the compiled code reads), state_io + scenario (JSON states played forward),
conformance + batch_conformance (the cs4500 harness on either engine), addresses
(random-stream addresses and end reasons shared by both engines), adapter (GAME).
"""
