"""Minimal spaces with Gymnasium's shapes and semantics (docs/python.md, "Gymnasium and PettingZoo").

The wrappers in carcassonne.gym and carcassonne.aec describe their observations and actions with
these, so that neither Gymnasium nor PettingZoo is needed: Box, MultiBinary, Discrete, MultiDiscrete
(a batch of Discrete, as Gymnasium's vector envs use) and Dict behave as Gymnasium's classes of the
same names do for what the wrappers need (shape, dtype, seed, sample, contains / ``in``, ==).
Converting one to Gymnasium's is a matter of its constructor's arguments, e.g.
``gymnasium.spaces.Box(s.low, s.high, s.shape, s.dtype)``.
"""
import numpy as np


class Space:
    """Shape, dtype and a seeded generator: the parts every space shares (gymnasium.spaces.Space)."""

    def __init__(self, shape=None, dtype=None, seed=None):
        self._shape = None if shape is None else tuple(int(d) for d in shape)
        self.dtype = None if dtype is None else np.dtype(dtype)
        self._np_random = None
        if seed is not None:
            self.seed(seed)

    @property
    def shape(self):
        return self._shape

    @property
    def np_random(self):
        if self._np_random is None:  # Gymnasium seeds lazily from the OS's entropy
            self.seed()
        return self._np_random

    def seed(self, seed=None):
        """Restarts sample()'s generator; returns the seed used (drawn from entropy for None)."""
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % 2**32)
        self._np_random = np.random.default_rng(seed)
        return seed

    def __contains__(self, x):
        return self.contains(x)


class Box(Space):
    """Real vectors within [low, high] element-wise (floats here; low/high broadcast to shape)."""

    def __init__(self, low, high, shape=None, dtype=np.float32, seed=None):
        if shape is None:
            shape = np.broadcast(np.asarray(low), np.asarray(high)).shape
        super().__init__(shape, dtype, seed)
        self.low = np.broadcast_to(np.asarray(low, dtype=self.dtype), self.shape)
        self.high = np.broadcast_to(np.asarray(high, dtype=self.dtype), self.shape)
        if np.any(self.low > self.high):
            raise ValueError("low: a bound is above high's")

    def contains(self, x):
        if not isinstance(x, np.ndarray):
            try:
                x = np.asarray(x, dtype=self.dtype)
            except (ValueError, TypeError):
                return False
        return bool(np.can_cast(x.dtype, self.dtype) and x.shape == self.shape
                    and np.all(x >= self.low) and np.all(x <= self.high))

    def sample(self, mask=None):
        if mask is not None:
            raise ValueError("mask: Box.sample takes no mask")
        # As Gymnasium: uniform where bounded, shifted exponential where bounded on one side.
        lo, hi = self.low.astype(np.float64), self.high.astype(np.float64)
        r = self.np_random
        out = r.normal(size=self.shape)
        both, below, above = np.isfinite(lo) & np.isfinite(hi), np.isfinite(lo) & ~np.isfinite(hi), ~np.isfinite(lo) & np.isfinite(hi)
        out[both] = r.uniform(lo[both], hi[both])
        out[below] = lo[below] + r.exponential(size=int(below.sum()))
        out[above] = hi[above] - r.exponential(size=int(above.sum()))
        return out.astype(self.dtype)

    def __eq__(self, other):
        return (isinstance(other, Box) and self.shape == other.shape and self.dtype == other.dtype
                and np.array_equal(self.low, other.low) and np.array_equal(self.high, other.high))

    def __repr__(self):
        lo, hi = (v.flat[0] if v.size and np.all(v == v.flat[0]) else "array" for v in (self.low, self.high))
        return f"Box({lo}, {hi}, {self.shape}, {self.dtype})"


class MultiBinary(Space):
    """n flags of 0 or 1 (int8, as Gymnasium's)."""

    def __init__(self, n, seed=None):
        self.n = int(n)
        super().__init__((self.n,), np.int8, seed)

    def contains(self, x):
        x = np.asarray(x)
        return bool(x.shape == self.shape and np.issubdtype(x.dtype, np.integer) and np.all((x == 0) | (x == 1)))

    def sample(self, mask=None):
        if mask is not None:
            raise ValueError("mask: MultiBinary.sample takes no mask here")
        return self.np_random.integers(0, 2, size=self.shape, dtype=np.int8)

    def __eq__(self, other):
        return isinstance(other, MultiBinary) and self.n == other.n

    def __repr__(self):
        return f"MultiBinary({self.n})"


def _masked_choice(rng, n, mask, start, where):
    """One of start..start+n-1 among mask == 1 (start when none is allowed, as Gymnasium's)."""
    mask = np.asarray(mask)
    if mask.shape != (n,) or not np.issubdtype(mask.dtype, np.integer):
        raise ValueError(f"{where}: expected integer 0/1 flags of shape ({n},), got {mask.dtype} {mask.shape}")
    legal = np.flatnonzero(mask == 1)
    return start + (int(rng.choice(legal)) if legal.size else 0)


class Discrete(Space):
    """One integer of start..start+n-1."""

    def __init__(self, n, start=0, seed=None):
        self.n, self.start = int(n), int(start)
        super().__init__((), np.int64, seed)

    def contains(self, x):
        if isinstance(x, np.ndarray) and x.shape == () and np.issubdtype(x.dtype, np.integer):
            x = int(x)
        elif isinstance(x, np.integer):
            x = int(x)
        if not isinstance(x, int):
            return False
        return self.start <= x < self.start + self.n

    def sample(self, mask=None):
        """A uniform integer; with mask (n flags, int8 in Gymnasium), among the flags set to 1."""
        if mask is None:
            return np.int64(self.start + int(self.np_random.integers(self.n)))
        return np.int64(_masked_choice(self.np_random, self.n, mask, self.start, "mask"))

    def __eq__(self, other):
        return isinstance(other, Discrete) and (self.n, self.start) == (other.n, other.start)

    def __repr__(self):
        return f"Discrete({self.n})" if self.start == 0 else f"Discrete({self.n}, start={self.start})"


class MultiDiscrete(Space):
    """One integer per entry, entry i in 0..nvec[i]-1: Gymnasium's batch of Discrete spaces."""

    def __init__(self, nvec, seed=None):
        self.nvec = np.asarray(nvec, dtype=np.int64)
        super().__init__(self.nvec.shape, np.int64, seed)

    def contains(self, x):
        x = np.asarray(x)
        return bool(x.shape == self.shape and np.issubdtype(x.dtype, np.integer) and np.all((x >= 0) & (x < self.nvec)))

    def sample(self, mask=None):
        """Uniform integers; with mask (a tuple of one flag array per entry), among each one's 1s."""
        if mask is None:
            return (self.np_random.random(self.shape) * self.nvec).astype(np.int64)
        if len(mask) != self.nvec.size:
            raise ValueError(f"mask: expected {self.nvec.size} flag arrays, got {len(mask)}")
        return np.array([_masked_choice(self.np_random, int(n), m, 0, f"mask[{i}]")
                         for i, (n, m) in enumerate(zip(self.nvec.flat, mask))], dtype=np.int64).reshape(self.shape)

    def __eq__(self, other):
        return isinstance(other, MultiDiscrete) and np.array_equal(self.nvec, other.nvec)

    def __repr__(self):
        return f"MultiDiscrete({self.nvec.tolist()})"


class Dict(Space):
    """Named subspaces, in order; its elements are dicts with the same keys."""

    def __init__(self, spaces, seed=None):
        self.spaces = dict(spaces)
        super().__init__(None, None, None)
        if seed is not None:
            self.seed(seed)

    def seed(self, seed=None):
        """Seeds every subspace from one generator, so one seed gives one sequence of samples."""
        seed = super().seed(seed)
        for space in self.spaces.values():
            space.seed(int(self._np_random.integers(2**32)))
        return seed

    def contains(self, x):
        return (isinstance(x, dict) and x.keys() == self.spaces.keys()
                and all(space.contains(x[k]) for k, space in self.spaces.items()))

    def sample(self, mask=None):
        mask = mask or {}
        return {k: space.sample(mask=mask.get(k)) for k, space in self.spaces.items()}

    def __getitem__(self, key):
        return self.spaces[key]

    def __iter__(self):
        return iter(self.spaces)

    def __len__(self):
        return len(self.spaces)

    def keys(self):
        return self.spaces.keys()

    def items(self):
        return self.spaces.items()

    def __eq__(self, other):
        return isinstance(other, Dict) and list(self.spaces.items()) == list(other.spaces.items())

    def __repr__(self):
        return "Dict(" + ", ".join(f"{k!r}: {s!r}" for k, s in self.spaces.items()) + ")"
