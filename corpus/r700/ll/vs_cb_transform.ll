define amdgpu_vs void @main(<4 x float> inreg %in0) {
entry:
  %x0 = extractelement <4 x float> %in0, i32 0
  %y0 = extractelement <4 x float> %in0, i32 1
  %z0 = extractelement <4 x float> %in0, i32 2
  %w0 = extractelement <4 x float> %in0, i32 3
  %p0 = getelementptr <4 x float>, ptr addrspace(8) null, i32 0
  %c0 = load <4 x float>, ptr addrspace(8) %p0
  %p1 = getelementptr <4 x float>, ptr addrspace(8) null, i32 1
  %c1 = load <4 x float>, ptr addrspace(8) %p1
  %p2 = getelementptr <4 x float>, ptr addrspace(8) null, i32 2
  %c2 = load <4 x float>, ptr addrspace(8) %p2
  %p3 = getelementptr <4 x float>, ptr addrspace(8) null, i32 3
  %c3 = load <4 x float>, ptr addrspace(8) %p3
  %s0 = insertelement <4 x float> undef, float %x0, i32 0
  %b0 = shufflevector <4 x float> %s0, <4 x float> undef, <4 x i32> zeroinitializer
  %s1 = insertelement <4 x float> undef, float %y0, i32 0
  %b1 = shufflevector <4 x float> %s1, <4 x float> undef, <4 x i32> zeroinitializer
  %s2 = insertelement <4 x float> undef, float %z0, i32 0
  %b2 = shufflevector <4 x float> %s2, <4 x float> undef, <4 x i32> zeroinitializer
  %s3 = insertelement <4 x float> undef, float %w0, i32 0
  %b3 = shufflevector <4 x float> %s3, <4 x float> undef, <4 x i32> zeroinitializer
  %m0 = fmul <4 x float> %c0, %b0
  %m1 = fmul <4 x float> %c1, %b1
  %m2 = fmul <4 x float> %c2, %b2
  %m3 = fmul <4 x float> %c3, %b3
  %a0 = fadd <4 x float> %m0, %m1
  %a1 = fadd <4 x float> %m2, %m3
  %out = fadd <4 x float> %a0, %a1
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 60, i32 1)
  call void @llvm.r600.store.swizzle(<4 x float> %in0, i32 0, i32 2)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
