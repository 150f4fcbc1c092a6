"""Ernesto Capybara (rulebook: Ernesto Capybara).

Capybaras on strike: play cards of one colour to make players put tension tokens on
strike cards; at each of the four Revolutions every strike goes to the player with the
most tokens on it, and the fewest fatigue points on the strikes taken wins.
The engine contract both engines follow is docs/games/capybara.md.
"""
