"""Agent harnesses inside a Schrödinger Views disguise (see README.md)."""

from .environment import SUBMIT_MARKER, DisguisedEnvironment, DisguisedEnvironmentConfig, RuntimeFailure, diff_paths
from .prepared import prepared_checkout, serve_prepared

__all__ = ["SUBMIT_MARKER", "DisguisedEnvironment", "DisguisedEnvironmentConfig", "RuntimeFailure", "diff_paths", "prepared_checkout", "serve_prepared"]
__version__ = "0.1.0"
