#include "common.h"
struct subgroup_args { global uint *a; global uint *sum; global uint *incl; global uint *excl; global uint *mx; };
void libagx_helper(void)
{
   ARGS(struct subgroup_args);
   uint lane = LANE;
   uint v = args->a[lane];
   args->sum[lane] = sub_group_reduce_add(v);
   args->incl[lane] = sub_group_scan_inclusive_add(v);
   args->excl[lane] = sub_group_scan_exclusive_add(v);
   args->mx[lane] = sub_group_reduce_max(v);
}
