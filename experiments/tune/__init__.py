"""`balancelab tune`: propose the smallest data edit that meets balance targets, and prove it.

config.py (the TOML), space.py (variables on the ruleset), evaluate.py (games on disk),
targets.py (metrics), search.py (racing), proof.py (fresh games, sensitivity),
output.py (data folder, rows), run.py (the command).
"""
