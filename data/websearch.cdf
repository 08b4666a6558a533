# Web-search flow sizes (the DCTCP measurement study), as used by the REPS evaluation.
# Format: one point per line, "<flow size in bytes> <cumulative percent of flows <= that size>".
# Sizes between points are interpolated linearly; the last point must be at 100 percent.
0 0
10000 15
20000 20
30000 30
50000 40
80000 53
200000 60
1000000 70
2000000 80
5000000 90
10000000 97
30000000 100
