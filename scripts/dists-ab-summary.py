#!/usr/bin/env python3
"""Summary of scripts/dists-ab.sh output written with VS=PEER: per (curve, n, scalars), new/old as the
min of minimums and the median of medians over the rounds, and multiexp/peer per process (median over
rounds), for each build.  Usage: python3 scripts/dists-ab-summary.py AB.txt"""
import sys, collections, statistics as st
rows=collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    f=line.split()
    if len(f)<9: continue
    _,curve,n,d,which=f[:5]; mmin,mmed,amin,amed=map(float,f[5:9])
    rows[(curve,n,d)][which].append((mmin, mmed, amin, amed))
print("curve n scalars | new/old min-of-mins, median-of-medians | old/ark med-ratio, new/ark med-ratio (median over rounds)")
for k,v in rows.items():
    o,nw=v['old'],v['new']
    r_min=min(x[0] for x in nw)/min(x[0] for x in o)
    r_med=st.median(x[1] for x in nw)/st.median(x[1] for x in o)
    oa=st.median(x[1]/x[3] for x in o); na=st.median(x[1]/x[3] for x in nw)
    oam=st.median(x[0]/x[2] for x in o); nam=st.median(x[0]/x[2] for x in nw)
    print(f"{k[0]} {k[1]} {k[2]:10} new/old min {r_min:.2f} med {r_med:.2f} | vs peer (median of per-process ratios) medians old {oa:.2f} new {na:.2f}; mins old {oam:.2f} new {nam:.2f}")
