"""The Evo greedy bot's constants (docs/games/evo.md section 13), one definition shared by
both engines' greedy forms."""

W_SAFE = 3        # weight of a zone's safety class in a zone's value
NEAR_CAP = 3      # distance to the nearest ideal zone is capped here
W_NOW = 4         # weight of the sector in force against the look-ahead
KILL = 12         # worth of removing an opponent's dinosaur
EVENT_WORTH = 1   # worth of the event column in the auction

# Worth of a gene in the auction, by its effect word (printed effect; `active` ignored).
WORTH = {
    "move_points": 2, "horns": 2, "attack_horns": 1, "defence_horns": 1, "thermo": 2,
    "fur": 2, "eggs": 3, "vials": 2, "birth_range": 1, "coastal_move": 2, "wings": 1,
    "floor": 1, "killer_babies": 2, "sixth_sense": 1, "cave": 2, "adrenaline": 1,
    "chameleon": 2,
}
