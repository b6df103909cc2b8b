"""The package and repository as a whole: layout, import graph, docs, README, release, typing, contracts."""
