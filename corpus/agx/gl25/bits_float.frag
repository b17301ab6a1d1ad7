#version 450
// floatBitsToUint / uintBitsToFloat, bitfieldExtract, bitCount, findMSB on varyings.
layout(location = 0) in vec2 t;
layout(location = 0) out vec4 o;
void main() {
    uint u = floatBitsToUint(t.x);
    uint m = bitfieldExtract(u, 15, 8);
    float f = uintBitsToFloat((u & 0xFF800000u) | 0x00400000u);
    o = vec4(float(m) / 255.0, float(bitCount(u)) / 32.0, f * 0.5,
             float(findMSB(uint(t.y * 1000.0))) / 16.0);
}
