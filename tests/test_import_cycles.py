"""No import cycle among the product's engine and bot modules: for every direct import
m -> i under simcore/ and strategies/, no chain of imports leads from i back to m (imports
inside functions included: grimp reads them all)."""
import grimp


def test_no_module_of_simcore_or_strategies_is_in_an_import_cycle():
    graph = grimp.build_graph("simcore", "strategies")
    modules = sorted(graph.modules)
    assert len(modules) > 100 and "simcore.jit" in modules and "strategies.registry" in modules
    cycles = sorted((m, i) for m in modules for i in graph.find_modules_directly_imported_by(m)
                    if graph.chain_exists(importer=i, imported=m))
    assert cycles == [], f"import cycles (m imports i, and i leads back to m): {cycles}"
