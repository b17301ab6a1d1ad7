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
  %c = icmp sgt i32 %i0, %i1
  %a = select i1 %c, float %z0, float %w0
  %fc = fcmp olt float %z1, %w1
  %b = select i1 %fc, i32 %i2, i32 %i3
  %bf = bitcast i32 %b to float
  %out_v0 = insertelement <4 x float> undef, float %a, i32 0
  %out_v1 = insertelement <4 x float> %out_v0, float %bf, i32 1
  %out_v2 = insertelement <4 x float> %out_v1, float %z1, i32 2
  %out = insertelement <4 x float> %out_v2, float %w1, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
