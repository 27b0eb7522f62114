#!/usr/bin/env python3
"""Checks that the engine's and the app's folders include only folders below them
(docs/architecture.md: "Engine modules" and "App").

Usage: check_layers.py [REPO_ROOT]. Prints each upward or sideways include and exits 1 if any;
also fails for a folder missing from the layers, so a new folder must be placed in the order.
In the app, the files at its root (the window's glue: App, main, headless, options, settings)
may include any folder, and no folder may include them.
"""
import os
import re
import sys

# Bottom to top; folders on one line are siblings and may not include each other.
ENGINE_LAYERS = [
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
# The app's folders lie above the whole engine. run/ is GL-free (the panes, their steps, replay,
# exports).
APP_LAYERS = [
    ["run"],
    ["render"],
    ["capture", "input"],
    ["ui"],
]

# Quoted and angled includes alike: the include roots (engine/, app/) are on the compiler's path.
INCLUDE = re.compile(r'#\s*include\s*[<"]([^>"]+)[>"]')


def check_tree(tree, layers, root_above=False):
    """Problems of `tree` (a directory of folders in `layers`); with root_above, the files at the
    tree's root lie above every folder, so a folder's bare include of one is a problem."""
    rank = {folder: level for level, names in enumerate(layers) for folder in names}
    folders = sorted(d for d in os.listdir(tree) if os.path.isdir(os.path.join(tree, d)))
    name = os.path.basename(os.path.normpath(tree))
    problems = [f"{name}/{d}/ is not placed in scripts/check_layers.py" for d in folders if d not in rank]
    for folder in folders:
        if folder not in rank:
            continue
        for file in sorted(os.listdir(os.path.join(tree, folder))):
            with open(os.path.join(tree, folder, file), encoding="utf-8") as source:
                for target in INCLUDE.findall(source.read()):
                    if target.startswith("."):  # relative to the including file: from the tree's root
                        target = os.path.normpath(os.path.join(folder, target))
                    parts = target.split("/")
                    if len(parts) == 1:
                        if root_above and os.path.exists(os.path.join(tree, target)):
                            problems.append(f"{name}/{folder}/{file} includes {target} (the app's root, above every folder)")
                        continue
                    other = parts[0]
                    if other in rank and other != folder and rank[other] >= rank[folder]:
                        problems.append(f"{name}/{folder}/{file} includes {other}/ (not below {folder}/)")
    return problems


def main() -> int:
    repo = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    problems = check_tree(os.path.join(repo, "engine"), ENGINE_LAYERS)
    app = os.path.join(repo, "app")
    if os.path.isdir(app):
        problems += check_tree(app, APP_LAYERS, root_above=True)
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
