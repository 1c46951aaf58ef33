"""Run the benchmarks: ``python -m bench`` (all) or ``python -m bench NAME [NAME...] [--flags]``."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time

import bench


def main(args: list[str]) -> int:
    """``NAME [NAME...] [--flag ...]``: flags after the names go to the benchmarks (``--set dev``)."""
    split = next((i for i, a in enumerate(args) if a.startswith("--")), len(args))
    names, flags = args[:split], args[split:]
    sys.argv = [sys.argv[0], *flags]
    available = sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if not m.name.startswith("_"))
    chosen = names or available
    unknown = [n for n in chosen if n not in available]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; available: {', '.join(available)}")
        return 2
    for name in chosen:
        print(f"\n===== bench.{name} =====", flush=True)
        started = time.perf_counter()
        module = importlib.import_module(f"bench.{name}")
        module.main()
        print(f"(bench.{name} took {time.perf_counter() - started:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
