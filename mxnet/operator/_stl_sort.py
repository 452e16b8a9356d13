"""The order 1.9.1's CPU sorts give to equal elements.

1.9.1's CPU ``topk``/``sort``/``argsort`` sort an index list per row with the C++ standard
library (libstdc++): ``std::sort`` (introsort: median-of-three quicksort down to runs of 16,
heapsort past a depth limit, then insertion sort) when ``k * 8 > n``, otherwise
``std::partial_sort`` (a heap of the first k, then heap sort). Neither is stable, so the
positions reported for tied values follow these algorithms' steps. The functions below
retrace those steps on a Python list of positions ``a`` whose values are ``v[a[i]]``; they
are used only for rows that hold ties (elsewhere every order agrees with a stable sort).
"""
_THRESH = 16


def _adjust_heap(a, v, hole, n, val, less):
    top = hole
    child = hole
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if less(v[a[child]], v[a[child - 1]]):
            child -= 1
        a[hole] = a[child]
        hole = child
    if (n & 1) == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        a[hole] = a[child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and less(v[a[parent]], v[val]):
        a[hole] = a[parent]
        hole = parent
        parent = (hole - 1) // 2
    a[hole] = val


def _make_heap(a, v, n, less):
    if n < 2:
        return
    parent = (n - 2) // 2
    while True:
        _adjust_heap(a, v, parent, n, a[parent], less)
        if parent == 0:
            return
        parent -= 1


def partial_sort(a, v, k, less, lo=0, hi=None):
    """a[lo:lo+k] gets the k smallest (by less) of a[lo:hi], in order; in place."""
    hi = len(a) if hi is None else hi
    sub = a[lo:hi]
    _make_heap(sub, v, k, less)
    for i in range(k, len(sub)):
        if less(v[sub[i]], v[sub[0]]):
            val = sub[i]
            sub[i] = sub[0]
            _adjust_heap(sub, v, 0, k, val, less)
    m = k
    while m > 1:
        m -= 1
        val = sub[m]
        sub[m] = sub[0]
        _adjust_heap(sub, v, 0, m, val, less)
    a[lo:hi] = sub


def _median_to_first(a, v, r, x, y, z, less):
    va, vb, vc = v[a[x]], v[a[y]], v[a[z]]
    if less(va, vb):
        if less(vb, vc):
            s = y
        elif less(va, vc):
            s = z
        else:
            s = x
    elif less(va, vc):
        s = x
    elif less(vb, vc):
        s = z
    else:
        s = y
    a[r], a[s] = a[s], a[r]


def _partition(a, v, first, last, pivot, less):
    pv = v[a[pivot]]
    while True:
        while less(v[a[first]], pv):
            first += 1
        last -= 1
        while less(pv, v[a[last]]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _introsort(a, v, first, last, depth, less):
    while last - first > _THRESH:
        if depth == 0:
            partial_sort(a, v, last - first, less, first, last)
            return
        depth -= 1
        mid = first + (last - first) // 2
        _median_to_first(a, v, first, first + 1, mid, last - 1, less)
        cut = _partition(a, v, first + 1, last, first, less)
        _introsort(a, v, cut, last, depth, less)
        last = cut


def _insertion(a, v, first, last, less):
    for i in range(first + 1, last):
        val = a[i]
        if less(v[val], v[a[first]]):
            a[first + 1:i + 1] = a[first:i]
            a[first] = val
        else:
            j = i
            while less(v[val], v[a[j - 1]]):
                a[j] = a[j - 1]
                j -= 1
            a[j] = val


def std_sort(a, v, less):
    n = len(a)
    if n < 2:
        return
    _introsort(a, v, 0, n, 2 * (n.bit_length() - 1), less)
    if n > _THRESH:
        _insertion(a, v, 0, _THRESH, less)
        for i in range(_THRESH, n):   # unguarded linear insert
            val = a[i]
            j = i
            while less(v[val], v[a[j - 1]]):
                a[j] = a[j - 1]
                j -= 1
            a[j] = val
    else:
        _insertion(a, v, 0, n, less)


def topk_order(vals, k, ascend):
    """The first ``k`` positions of ``vals`` (a list) in 1.9.1's CPU order."""
    n = len(vals)
    a = list(range(n))
    v = list(vals)
    less = (lambda p, q: p < q) if ascend else (lambda p, q: p > q)
    if k * 8 > n:
        std_sort(a, v, less)
    else:
        partial_sort(a, v, k, less)
    return a[:k]
