"""The greedy bot's two constants (docs/games/capybara.md section 13), one definition
shared by both engines' greedy."""

# Discarding a Capybaranka costs this many fatigue points per opponent (times 2, the D scale).
GREEDY_KEEP_CANCEL = 3
# A Capybaranka is spent on a card that hurts by at least this many fatigue points per opponent.
GREEDY_CANCEL_FATIGUE = 3
