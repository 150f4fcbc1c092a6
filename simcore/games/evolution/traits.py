"""The 17 Evolution traits: the effect vocabulary. Names are the cs4500 JSON spellings.

Trait *numbers* (hard-shell bonus, foraging extra, ...) are rule parameters; this module
only names the traits and gives each a small integer id (bit k of a species' trait mask).
"""
from __future__ import annotations

TRAITS = (
    "ambush", "burrowing", "carnivore", "climbing", "cooperation", "fat-tissue",
    "fertile", "foraging", "hard-shell", "herding", "horns", "intelligence", "long-neck",
    "pack-hunting", "scavenger", "symbiosis", "warning-call",
)
TRAIT_ID = {name: i for i, name in enumerate(TRAITS)}

AMBUSH = TRAIT_ID["ambush"]
BURROWING = TRAIT_ID["burrowing"]
CARNIVORE = TRAIT_ID["carnivore"]
CLIMBING = TRAIT_ID["climbing"]
COOPERATION = TRAIT_ID["cooperation"]
FAT_TISSUE = TRAIT_ID["fat-tissue"]
FERTILE = TRAIT_ID["fertile"]
FORAGING = TRAIT_ID["foraging"]
HARD_SHELL = TRAIT_ID["hard-shell"]
HERDING = TRAIT_ID["herding"]
HORNS = TRAIT_ID["horns"]
INTELLIGENCE = TRAIT_ID["intelligence"]
LONG_NECK = TRAIT_ID["long-neck"]
PACK_HUNTING = TRAIT_ID["pack-hunting"]
SCAVENGER = TRAIT_ID["scavenger"]
SYMBIOSIS = TRAIT_ID["symbiosis"]
WARNING_CALL = TRAIT_ID["warning-call"]

# Defensive traits an Intelligence carnivore may negate for one attack ("none" = -1).
NEGATABLE = (BURROWING, CLIMBING, HARD_SHELL, HERDING, SYMBIOSIS, WARNING_CALL)
