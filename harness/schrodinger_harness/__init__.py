"""Agent harnesses inside a Schrödinger Views disguise (see README.md)."""

from .environment import SUBMIT_MARKER, DisguisedEnvironment, DisguisedEnvironmentConfig, RuntimeFailure, diff_paths

__all__ = ["SUBMIT_MARKER", "DisguisedEnvironment", "DisguisedEnvironmentConfig", "RuntimeFailure", "diff_paths"]
__version__ = "0.1.0"
