measure -h
