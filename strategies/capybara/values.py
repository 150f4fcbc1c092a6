"""The greedy bot's two constants (contract section 13), one definition for both forms."""
GREEDY_KEEP_CANCEL = 3       # a Capybaranka kept in hand is worth this much fatigue to greedy
GREEDY_CANCEL_FATIGUE = 3    # greedy cancels a card that hurts it by at least this much fatigue
