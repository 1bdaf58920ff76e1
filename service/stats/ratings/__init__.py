"""Player ratings: OpenSkill's Plackett-Luce over each game's finished games, in finish order.

- ``model``: what a game's figures give the ratings, and the model applied in order (pure);
- ``ties``: a game with tied ranks, its update averaged over the orders of its ties (pure);
- ``writing``: rating in Redis, each game in its place in the finish order, and the rebuild's;
- ``reading``: the leaderboards, a player's ratings and their history, for the API and pages.
"""
