"""One pytest-xdist worker per DriverConformance class.

A class's checks all come from one run of the binary, and every worker
that is given any of them runs the class's whole suite again; so under
``-n N`` the items of a class must go to one worker. xdist's own way,
``--dist loadgroup`` with an ``xdist_group`` mark, appends the group to
each item's node id in the worker, which pytest 9 no longer lets a plugin
change (pytest-xdist 3.8.0 under pytest 9.2 spread each class over the
workers). This scheduler groups by node id instead, on the controller."""

from xdist.scheduler import LoadScopeScheduling


def class_of_check(nodeid):
    """The node id of the class a conformance check's node id belongs to,
    or None for any other test. A check item's id is ``FILE::CLASS::ID``
    with a check id ``area.rule``: a dot no Python function name has, and
    no ``[`` as a parametrized test has."""
    parts = nodeid.split("::")
    last = parts[-1]
    if len(parts) >= 3 and "." in last and "[" not in last:
        return "::".join(parts[:-1])
    return None


class ClassScheduling(LoadScopeScheduling):
    """xdist's ``load`` (or, with `by_group`, ``loadgroup``) distribution,
    except that the checks of one conformance class are one unit of work,
    sent whole to one worker."""

    def __init__(self, config, log=None, by_group=False):
        super().__init__(config, log)
        self._by_group = by_group

    def _split_scope(self, nodeid):
        owner = class_of_check(nodeid)
        if owner is not None:
            return owner
        if self._by_group and nodeid.rfind("@") > nodeid.rfind("]"):
            # xdist's loadgroup rule, for the session's other tests.
            return nodeid.split("@")[-1]
        return nodeid
