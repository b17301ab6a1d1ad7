// Exercises 8- and 16-bit memory access: u8/i8/u16/i16 loads (zero/sign extension) and stores at odd offsets, uchar/short scalar kernel arguments.
__kernel void bytes_shorts(__global const uchar *u8, __global const char *i8, __global const ushort *u16, __global const short *i16,
                           __global uchar *o8, __global short *o16, __global int *o32, uchar k, short s, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    uchar a = u8[i];
    char b = i8[i];
    ushort c = u16[i];
    short d = i16[i];
    o32[4u * i] = (int)a + (int)b;
    o32[4u * i + 1u] = (int)c * (int)d;
    o32[4u * i + 2u] = (int)(b >> 2) - (int)(d >> 3) + (int)(a >> 1);
    o32[4u * i + 3u] = (int)(uchar)(a * k) + (int)(short)(d * s);
    o8[3u * i] = (uchar)(a + k);
    o8[3u * i + 1u] = (uchar)(b ^ (char)k);
    o8[3u * i + 2u] = (uchar)(c >> 8);
    o16[2u * i] = (short)(d + s);
    o16[2u * i + 1u] = (short)(c - (ushort)b);
}
