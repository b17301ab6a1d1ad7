; 32-bit unsigned division and remainder with large operands (the R600 back end's RECIP_UINT expansion).
define amdgpu_ps void @main(<4 x float> inreg %in0) {
entry:
  %x = extractelement <4 x float> %in0, i32 0
  %y = extractelement <4 x float> %in0, i32 1
  %ax = call float @llvm.fabs.f32(float %x)
  %ay = call float @llvm.fabs.f32(float %y)
  %xi = fptoui float %ax to i32
  %yi = fptoui float %ay to i32
  %n0 = mul i32 %xi, 1000003
  %n = add i32 %n0, 3000000017
  %d0 = add i32 %yi, 1
  %d = mul i32 %d0, 7919
  %q = udiv i32 %n, %d
  %r = urem i32 %n, %d
  %qf = bitcast i32 %q to float
  %rf = bitcast i32 %r to float
  %nf = bitcast i32 %n to float
  %df = bitcast i32 %d to float
  %v0 = insertelement <4 x float> undef, float %qf, i32 0
  %v1 = insertelement <4 x float> %v0, float %rf, i32 1
  %v2 = insertelement <4 x float> %v1, float %nf, i32 2
  %v3 = insertelement <4 x float> %v2, float %df, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %v3, i32 0, i32 0)
  ret void
}
declare float @llvm.fabs.f32(float)
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
