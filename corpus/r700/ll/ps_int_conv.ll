define amdgpu_ps void @main(<4 x float> inreg %in0, <4 x float> inreg %in1) {
entry:
  %x0 = extractelement <4 x float> %in0, i32 0
  %y0 = extractelement <4 x float> %in0, i32 1
  %z0 = extractelement <4 x float> %in0, i32 2
  %w0 = extractelement <4 x float> %in0, i32 3
  %x1 = extractelement <4 x float> %in1, i32 0
  %y1 = extractelement <4 x float> %in1, i32 1
  %z1 = extractelement <4 x float> %in1, i32 2
  %w1 = extractelement <4 x float> %in1, i32 3
  %i0 = fptosi float %x0 to i32
  %i1 = fptosi float %y0 to i32
  %i2 = fptosi float %x1 to i32
  %i3 = fptosi float %y1 to i32
  %a = sitofp i32 %i0 to float
  %u = mul i32 %i1, 1000003
  %b = uitofp i32 %u to float
  %az = call float @llvm.fabs.f32(float %z0)
  %ci = fptoui float %az to i32
  %c = uitofp i32 %ci to float
  %di = fptosi float %w1 to i32
  %d = sitofp i32 %di to float
  %out_v0 = insertelement <4 x float> undef, float %a, i32 0
  %out_v1 = insertelement <4 x float> %out_v0, float %b, i32 1
  %out_v2 = insertelement <4 x float> %out_v1, float %c, i32 2
  %out = insertelement <4 x float> %out_v2, float %d, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
declare float @llvm.fabs.f32(float)
