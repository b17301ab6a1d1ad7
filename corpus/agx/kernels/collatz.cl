/* Collatz step counts, capped at limit (data-dependent loop) */
void wk_collatz(global const uint *start, global uint *steps, uint n, uint limit)
{
   uint i = get_global_id(0);
   if (i >= n)
      return;
   uint x = start[i], s = 0;
   while (x != 1 && s < limit) {
      x = (x & 1) ? 3 * x + 1 : x / 2;
      s++;
   }
   steps[i] = s;
}
