"""Learned players: Deep Monte-Carlo self-play on a game's batched engine, and the network.

* `parlour.learn.qnet` — the network in NumPy, what a trained bot plays with (NumPy only);
* `parlour.learn.dmc` — the same network in JAX with its learner (the `train` extra);
* `parlour.learn.trainer` — the self-play loop over a game's `SelfPlay` (its manifest's `train`);
* `parlour.learn.run`, `parlour.learn.cli` — `parlour train GAME`, its display, log and card;
* `parlour.learn.evaluate` — duplicate deals against the ladder's bots;
* `parlour.learn.curve` — the learning curve drawn from a run's log.

It knows no game: each game's features, self-play and bot live in its folder
(`games/<game>/learned/`), named by its manifest (`train`, and a `learned` bot). docs/training.md
says how to train and how it works.
"""
