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
  %c0 = fcmp ogt float %x0, %x1
  %a = select i1 %c0, float %y0, float %y1
  %c1 = fcmp oeq float %z0, %z1
  %b = select i1 %c1, float 1.0, float 2.0
  %c2 = fcmp oge float %w0, 0.0
  %c = select i1 %c2, float %w0, float %x0
  %c3 = fcmp une float %x0, %y0
  %d = select i1 %c3, float 3.0, float %z1
  %out_v0 = insertelement <4 x float> undef, float %a, i32 0
  %out_v1 = insertelement <4 x float> %out_v0, float %b, i32 1
  %out_v2 = insertelement <4 x float> %out_v1, float %c, i32 2
  %out = insertelement <4 x float> %out_v2, float %d, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
