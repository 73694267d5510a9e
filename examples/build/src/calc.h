#ifndef CALC_H
#define CALC_H

long add(long a, long b);
long mul(long a, long b);
long calc(long a, char op, long b);

#endif
