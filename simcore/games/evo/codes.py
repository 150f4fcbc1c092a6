"""Integer codes shared by the compiled batch engine, its state layout and the compiled bots.

Effects are indices into schema.GENE_EFFECTS / EVENT_EFFECTS, classes into schema.CLASSES,
die results into ATTACK_RESULTS / BABY_RESULTS; decision kinds follow contract section 7
(their lower-case names are the scenario `kind`s); chance kinds are contract section 2.
"""
from __future__ import annotations

from .schema import ATTACK_RESULTS, BABY_RESULTS, CLASSES, EVENT_EFFECTS, GENE_EFFECTS

(E_MOVE_POINTS, E_HORNS, E_ATTACK_HORNS, E_DEFENCE_HORNS, E_THERMO, E_FUR, E_EGGS, E_VIALS, E_CAVE,
 E_BIRTH_RANGE, E_FLOOR, E_WINGS, E_COASTAL, E_KILLER, E_SIXTH, E_ADRENALINE, E_CHAMELEON) = range(17)
assert GENE_EFFECTS == ("move_points", "horns", "attack_horns", "defence_horns", "thermo", "fur", "eggs",
                        "vials", "cave", "birth_range", "floor", "wings", "coastal_move", "killer_babies",
                        "sixth_sense", "adrenaline", "chameleon")
EV_PRESCIENCE, EV_FRENZY, EV_RATS, EV_THIEF, EV_GEYSERS = range(5)
assert EVENT_EFFECTS == ("prescience", "frenzied_attack", "rat_swarm", "egg_thief", "geysers")
IDEAL, HOT, COLD, DEADLY = range(4)
assert CLASSES == ("ideal", "hot", "cold", "deadly")
A_FAIL, A_WIN, A_DIFF = range(3)
assert ATTACK_RESULTS == ("fail", "win", "diff")
B_WIN, B_LOSE = range(2)
assert BABY_RESULTS == ("win", "lose")

# species traits (contract 1), one row per seat in g (state.O_TRAIT)
(T_MOVES, T_ATTACK, T_DEFENCE, T_THERMO, T_FUR, T_EGGS, T_VIALS, T_CAVE, T_RANGE, T_FLOOR, T_WINGS,
 T_COASTAL, T_KILLER, T_SIXTH, T_ADRENALINE, T_CHAMELEON) = range(16)
N_TRAITS = 16

# decision kinds (contract section 7)
DECISIONS = ("bid", "adrenaline", "event", "shift", "move", "escape", "birth", "die")
D_BID, D_ADRENALINE, D_EVENT, D_SHIFT, D_MOVE, D_ESCAPE, D_BIRTH, D_DIE = range(8)
# MOVE option kinds (row word 0; 0 = stop)
M_STOP, M_STEP, M_ATTACK, M_WINGS, M_FLIPPERS = range(5)

# phases (contract 4 and 15), in play order
PHASES = ("climate", "mutation", "initiative", "movement", "birth", "survival")
PH_CLIMATE, PH_MUTATION, PH_INITIATIVE, PH_MOVEMENT, PH_BIRTH, PH_SURVIVAL = range(6)

# chance kinds (contract section 2)
K_ORDER, K_UNIQUE, K_EVENTS, K_CLIMATE, K_CLIMATE_BOTTOM, K_DRAW, K_DIE = range(1, 8)

END_REASONS = ("meteorite",)
END_METEORITE = 0

# run_state's `until` (UNTIL_TURN: as UNTIL_PHASE, and also before each seat's turn of the
# auction and of the movement phase: the search protocol's decision points)
UNTIL_PHASE, UNTIL_ROUND, UNTIL_END, UNTIL_TURN = range(4)

# engine errors reported back to Python (g[G_ERR])
ERR_NONE, ERR_BAD_CHOICE, ERR_SCRIPT_KIND, ERR_SCRIPT_EMPTY, ERR_ROUND_LIMIT, ERR_NO_PILE = range(6)
