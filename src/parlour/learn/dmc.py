"""Deep Monte-Carlo's network and learner in JAX (equinox and optax): the `train` extra.

The same network as `parlour.learn.qnet` (the NumPy one that plays), as an equinox module:
Q(s, a) regressed on the Monte-Carlo return of the game (DouZero's recipe: every decision of a
self-play game is a sample, its target the final reward of the seat that made it). `act` scores
the legal moves of many decisions at once; `Learner.update` is one jitted Adam step on a
minibatch of (state, action, pair, return). `to_qnet` / `from_qnet` move the weights between the
two, so a checkpoint is the NumPy `.npz` plus the optimiser's state.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax

from .qnet import QNet

__all__ = ["Learner", "QModel", "from_qnet", "to_qnet"]


def _dense(key: jax.Array, a: int, b: int, gain: float = 2.0) -> tuple[jax.Array, jax.Array]:
    return jax.random.normal(key, (a, b)) * (gain / a) ** 0.5, jnp.zeros(b)


class QModel(eqx.Module):
    """Q(s, a) as `parlour.learn.qnet.QNet` computes it, over flat (decision, move) pairs."""

    tower: list[tuple[jax.Array, jax.Array]]
    w_state: jax.Array
    w_action: jax.Array
    w_pair: jax.Array
    b1: jax.Array
    hidden: list[tuple[jax.Array, jax.Array]]
    w_out: jax.Array
    b_out: jax.Array
    b_action: jax.Array
    action_table: jax.Array

    def __init__(
        self,
        key: jax.Array,
        state_size: int,
        pair_size: int,
        action_table: np.ndarray[Any, Any],
        tower: Sequence[int],
        pairs: Sequence[int],
        action_bias: np.ndarray[Any, Any] | None = None,
    ) -> None:
        keys = iter(jax.random.split(key, 8 + len(tower) + len(pairs)))
        layers = []
        width = state_size
        for size in tower:
            layers.append(_dense(next(keys), width, size))
            width = size
        self.tower = layers
        h1 = pairs[0]
        # He initialisation over the first joint layer's whole input
        fan_in = width + action_table.shape[1] + pair_size
        scale = (2.0 / fan_in) ** 0.5
        self.w_state = jax.random.normal(next(keys), (width, h1)) * scale
        self.w_action = jax.random.normal(next(keys), (action_table.shape[1], h1)) * scale
        self.w_pair = jax.random.normal(next(keys), (pair_size, h1)) * scale
        self.b1 = jnp.zeros(h1)
        self.hidden = [_dense(next(keys), a, b) for a, b in itertools.pairwise(pairs)]
        self.w_out = jax.random.normal(next(keys), (pairs[-1],)) * (0.01 / pairs[-1]) ** 0.5
        self.b_out = jnp.zeros(())
        n = action_table.shape[0]
        self.b_action = jnp.asarray(
            np.zeros(n) if action_bias is None else action_bias, jnp.float32
        )
        self.action_table = jnp.asarray(action_table, jnp.float32)

    def __call__(
        self, state: jax.Array, rows: jax.Array, actions: jax.Array, pair: jax.Array
    ) -> jax.Array:
        """Q of P pairs: `state` (R, S) decisions; pair p is move `actions[p]` of decision
        `rows[p]`, with features `pair[p]` (P, pair_size) -> (P,)."""
        t = state
        for w, b in self.tower:
            t = jax.nn.relu(t @ w + b)
        z = t @ self.w_state
        embed = self.action_table @ self.w_action
        h = jax.nn.relu(z[rows] + embed[actions] + pair @ self.w_pair + self.b1)
        for w, b in self.hidden:
            h = jax.nn.relu(h @ w + b)
        return h @ self.w_out + self.b_out + self.b_action[actions]


def to_qnet(model: QModel, meta: dict[str, Any]) -> QNet:
    """The NumPy network of `model`'s weights."""

    def arr(x: Any) -> Any:
        return np.asarray(x, np.float32)

    return QNet(
        tower=[(arr(w), arr(b)) for w, b in model.tower],
        w_state=arr(model.w_state),
        w_action=arr(model.w_action),
        w_pair=arr(model.w_pair),
        b1=arr(model.b1),
        hidden=[(arr(w), arr(b)) for w, b in model.hidden],
        w_out=arr(model.w_out),
        b_out=float(model.b_out),
        b_action=arr(model.b_action),
        action_table=arr(model.action_table),
        meta=dict(meta),
    )


def from_qnet(net: QNet) -> QModel:
    """An equinox model holding `net`'s weights."""
    model = QModel(
        jax.random.PRNGKey(0),
        net.state_size,
        net.w_pair.shape[0],
        net.action_table,
        net.tower_sizes,
        net.pair_sizes,
    )

    def layers(xs: list[tuple[Any, Any]]) -> list[tuple[jax.Array, jax.Array]]:
        return [(jnp.asarray(w), jnp.asarray(b)) for w, b in xs]

    out: QModel = eqx.tree_at(
        lambda m: (
            m.tower,
            m.w_state,
            m.w_action,
            m.w_pair,
            m.b1,
            m.hidden,
            m.w_out,
            m.b_out,
            m.b_action,
        ),
        model,
        (
            layers(net.tower),
            jnp.asarray(net.w_state),
            jnp.asarray(net.w_action),
            jnp.asarray(net.w_pair),
            jnp.asarray(net.b1),
            layers(net.hidden),
            jnp.asarray(net.w_out),
            jnp.asarray(net.b_out, jnp.float32),
            jnp.asarray(net.b_action),
        ),
    )
    return out


def _trainable(model: QModel) -> Any:
    """Everything but the fixed action table is learned."""
    spec = jax.tree_util.tree_map(eqx.is_inexact_array, model)
    return eqx.tree_at(lambda m: m.action_table, spec, False)


class Learner:
    """Adam on the mean squared error of Q(s, a) against the return, the global gradient norm
    clipped at `clip`. The learning rate is an argument of each step, so the trainer sets it from
    the run's progress (warm-up, then cosine decay: `parlour.learn.trainer.schedule`)."""

    def __init__(self, model: QModel, clip: float = 1.0) -> None:
        self.optim = optax.chain(optax.clip_by_global_norm(clip), optax.scale_by_adam())
        self.filter = _trainable(model)
        params, _ = eqx.partition(model, self.filter)
        self.model = model
        self.opt_state = self.optim.init(params)
        self._update = jax.jit(self._step)
        self._act = jax.jit(lambda m, s, r, a, p: m(s, r, a, p))

    def _step(
        self,
        model: QModel,
        opt_state: Any,
        lr: Any,
        state: Any,
        action: Any,
        pair: Any,
        target: Any,
    ) -> tuple[QModel, Any, jax.Array]:
        params, static = eqx.partition(model, self.filter)

        def loss_fn(p: Any) -> jax.Array:
            m = eqx.combine(p, static)
            q = m(state, jnp.arange(state.shape[0]), action, pair)
            return jnp.mean((q - target) ** 2)

        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = self.optim.update(grads, opt_state, params)
        updates = jax.tree_util.tree_map(lambda u: -lr * u, updates)
        params = optax.apply_updates(params, updates)
        return eqx.combine(params, static), opt_state, loss

    def update(self, lr: float, state: Any, action: Any, pair: Any, target: Any) -> jax.Array:
        """One Adam step on a minibatch at learning rate `lr`; returns the loss (a device value:
        read it lazily, so the step runs while the caller goes on)."""
        self.model, self.opt_state, loss = self._update(
            self.model, self.opt_state, np.float32(lr), state, action, pair, target
        )
        out: jax.Array = loss
        return out

    def act(self, state: Any, rows: Any, actions: Any, pair: Any) -> jax.Array:
        """Q of flat pairs under the current weights (see `QModel.__call__`)."""
        out: jax.Array = self._act(self.model, state, rows, actions, pair)
        return out

    def get_state(self) -> dict[str, Any]:
        """The weights and the optimiser's state as NumPy arrays (for a checkpoint)."""
        params, _ = eqx.partition(self.model, self.filter)
        leaves = jax.tree_util.tree_leaves(self.opt_state)
        return {
            "params": [np.asarray(x) for x in jax.tree_util.tree_leaves(params)],
            "opt": [np.asarray(x) for x in leaves],
        }

    def set_state(self, data: dict[str, Any]) -> None:
        params, static = eqx.partition(self.model, self.filter)
        treedef = jax.tree_util.tree_structure(params)
        params = jax.tree_util.tree_unflatten(treedef, [jnp.asarray(x) for x in data["params"]])
        self.model = eqx.combine(params, static)
        opt_def = jax.tree_util.tree_structure(self.opt_state)
        self.opt_state = jax.tree_util.tree_unflatten(
            opt_def, [jnp.asarray(x) for x in data["opt"]]
        )
