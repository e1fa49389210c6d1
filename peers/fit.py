"""The best fit of one set of named points onto another, for comparing
what two importers made of the same character: each chooses its own unit
and facing, so the points agree after a uniform scale, a rotation and an
offset, found by least squares (Umeyama)."""

import numpy as np


def similarity(peer: dict, ours: dict):
    """The uniform scale, rotation and offset taking our points to the
    peer's (by the names both have), the function that moves points so,
    and the largest distance left."""
    names = sorted(set(peer) & set(ours))
    source = np.array([ours[name] for name in names])
    target = np.array([peer[name] for name in names])
    source_mean, target_mean = source.mean(axis=0), target.mean(axis=0)
    a, b = source - source_mean, target - target_mean
    u, singular, vt = np.linalg.svd(b.T @ a / len(names))
    d = np.diag([1.0, 1.0, np.sign(np.linalg.det(u @ vt))])
    rotation = u @ d @ vt
    scale = float(np.trace(np.diag(singular) @ d) / (a**2).sum(axis=1).mean())

    def move(points):
        return scale * (np.asarray(points, dtype=float) - source_mean) @ rotation.T + target_mean

    residual = float(np.abs(move(source) - target).max()) if names else float("inf")
    return scale, rotation, move, residual
