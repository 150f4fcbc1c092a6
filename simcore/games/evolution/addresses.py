"""Random-stream addresses (kind codes) and end reasons shared by both engines.

A draw's address is (kind, ...): the same kind and numbers in both engines give the same
number. CHANCE stream: deck shuffles and the first player. BOT stream: bot decisions,
addressed (kind, round, seat, counter).
"""
SHUFFLE = 1         # (SHUFFLE, shuffle_count, card uid)   CHANCE
FIRST_PLAYER = 2    # (FIRST_PLAYER,)                       CHANCE
BOT_FOOD_CARD = 10  # (BOT_FOOD_CARD, round, seat)          BOT
BOT_PLAY = 11       # (BOT_PLAY, round, seat, counter)      BOT
BOT_FEED = 12       # (BOT_FEED, round, seat, turn)         BOT

END_DECK_EMPTY = 0  # the deck ran out while dealing: that round was the last
END_RESHUFFLE = 1   # extinction draws emptied the deck: discards reshuffled, one more round
END_MAX_ROUNDS = 2  # safety stop (param max_rounds)
END_DECK_SHORT = 3  # cs4500: the deck could not deal a whole round
