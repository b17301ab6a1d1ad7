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
  %s = and i32 %i2, 15
  %a = shl i32 %i0, %s
  %b = lshr i32 %i1, %s
  %c = ashr i32 %i1, %s
  %d = shl i32 %i3, 3
  %out_b0 = bitcast i32 %a to float
  %out_b1 = bitcast i32 %b to float
  %out_b2 = bitcast i32 %c to float
  %out_b3 = bitcast i32 %d to float
  %out_v0 = insertelement <4 x float> undef, float %out_b0, i32 0
  %out_v1 = insertelement <4 x float> %out_v0, float %out_b1, i32 1
  %out_v2 = insertelement <4 x float> %out_v1, float %out_b2, i32 2
  %out = insertelement <4 x float> %out_v2, float %out_b3, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
