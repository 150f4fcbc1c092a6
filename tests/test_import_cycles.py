"""No import cycle among the product's modules: the import graph (grimp, as import-linter
builds it, imports inside functions included) has no strongly connected component of more
than one module in the packages checked here."""
import grimp
import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

PRODUCT = ("simcore", "strategies", "experiments", "reports")
CHECKED = PRODUCT                          # packages whose modules may sit on no cycle


def cycles(graph, packages) -> list[list[str]]:
    """Every group of modules that import each other (directly or through others), by name,
    among the groups holding a module of `packages`."""
    modules = sorted(graph.modules)
    index = {m: i for i, m in enumerate(modules)}
    edges = [(index[m], index[t]) for m in modules for t in graph.find_modules_directly_imported_by(m)]
    importer, imported = zip(*edges)
    adjacency = csr_matrix((np.ones(len(edges)), (importer, imported)), shape=(len(modules),) * 2)
    _, component = connected_components(adjacency, directed=True, connection="strong")
    groups = [[modules[i] for i in np.flatnonzero(component == c)] for c in np.unique(component)]
    return [g for g in groups if len(g) > 1 and any(m.split(".")[0] in packages for m in g)]


def test_the_cycle_finder_names_a_planted_cycle():
    graph = grimp.ImportGraph()
    for importer, imported in (("experiments.a", "experiments.b"), ("experiments.b", "experiments.c"),
                               ("experiments.c", "experiments.a"), ("experiments.c", "reports.d"),
                               ("simcore.x", "simcore.y"), ("simcore.y", "simcore.x")):
        graph.add_import(importer=importer, imported=imported)
    assert cycles(graph, ("experiments", "reports")) == [["experiments.a", "experiments.b", "experiments.c"]]
    assert len(cycles(graph, CHECKED)) == 2
    assert cycles(graph, ("simcore",)) == [["simcore.x", "simcore.y"]]


def test_no_import_cycle_among_the_product_modules():
    graph = grimp.build_graph(*PRODUCT, cache_dir=None)
    assert len(graph.modules) > 200 and {"simcore.jit", "strategies.registry", "experiments.cli"} <= graph.modules
    found = cycles(graph, CHECKED)
    assert found == [], "modules that import each other: " + "; ".join(" <-> ".join(g) for g in found)
