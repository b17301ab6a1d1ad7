// piglit tests/spec/glsl-1.50/execution/out-of-ssa-DFS-pre-order.shader_test, rewritten by tools/agx/piglit_compute.py
#version 450
// groups: 2 1 1
// buffer: 0 ssbo zero 16
// buffer: 1 ssbo zero 16
// probe: 0 0 0x0
// probe: 0 1 0x1
// probe: 0 2 0x2
// probe: 0 3 0x3
// probe: 0 4 0x0
// probe: 0 5 0x1
// probe: 0 6 0x2
// probe: 0 7 0x3
// #define SKIP_NOOP

layout(local_size_x = 1) in;
layout(binding = 0, std430) writeonly buffer Result {
   ivec4 result[];
};

layout(binding = 1, std430) writeonly buffer Noop {
   ivec4 noop[];
};

ivec4 choose(ivec4 a, ivec4 b) {
   ivec4 c = b;
   if (b.x == b.y) {            // True in trivial case
      c = a;
   } else if (a.x > a.y) {      // Never true
      c = min(a, b);
   }
   return c;
}

ivec4 transform(uint ref) {
   return ivec4(ref, float(ref)+1.0, float(ref)+2.0, float(ref)+3.0);
}

shared ivec4 sh_value;

void main() {
   ivec4 value = ivec4(0, 0, 0, 0);
   uint loop_breaker = 0u;
   uint i = 0u;

   if (gl_LocalInvocationID.x == 0u) {
      while (true) {
         ivec4 ix = transform(i);
         i++;
         if (i == 1u) {
            value = choose(ix, value);
            if (loop_breaker == 0u) {
               break;
            }
            loop_breaker--;
         }
      }
      ivec4 a_0 = transform(gl_GlobalInvocationID.x);
      ivec4 a_1 = choose(value, a_0);
#ifndef SKIP_NOOP
      noop[gl_GlobalInvocationID.x] = a_1;
#endif
      sh_value = value;
   }
   value = sh_value;
   result[gl_GlobalInvocationID.x] = value;
}
