"""Evolution (North Star Games) and its cs4500 course profile.

Modules: ruleset (data loading: data/params.toml, data/variants/*.toml, data/cards.csv),
traits (the 17-trait vocabulary), reference (one game, plain Python: the oracle),
state + rules + game (the numpy batch engine; game.play_batch plays whole batches),
conformance + batch_conformance (the cs4500 harness on either engine), addresses
(random-stream addresses and end reasons shared by both engines).
"""
