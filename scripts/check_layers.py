#!/usr/bin/env python3
"""Checks that engine modules include only modules below them (docs/architecture.md).

Usage: check_layers.py [ENGINE_DIR]. Prints each upward or sideways include and exits 1 if any;
also fails for a module folder missing from LAYERS, so a new module must be placed in the order.
"""
import os
import re
import sys

# Bottom to top; modules on one line are siblings and may not include each other.
LAYERS = [
    ["core"],
    ["geometry"],
    ["mesh"],
    ["linalg"],
    ["elements"],
    ["model"],
    ["kinematics"],
    ["forces"],
    ["collision"],
    ["integrators"],
    ["simulation"],
    ["drape"],
    ["io"],
]


def main() -> int:
    engine = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "engine")
    rank = {module: level for level, names in enumerate(LAYERS) for module in names}
    folders = sorted(d for d in os.listdir(engine) if os.path.isdir(os.path.join(engine, d)))
    problems = [f"engine/{d}/ is not placed in scripts/check_layers.py's LAYERS" for d in folders if d not in rank]
    include = re.compile(r'#include "([a-z_]+)/[^"]+"')
    for module in folders:
        if module not in rank:
            continue
        for name in sorted(os.listdir(os.path.join(engine, module))):
            with open(os.path.join(engine, module, name), encoding="utf-8") as source:
                for target in include.findall(source.read()):
                    if target in rank and target != module and rank[target] >= rank[module]:
                        problems.append(f"engine/{module}/{name} includes {target}/ (not below {module}/)")
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
