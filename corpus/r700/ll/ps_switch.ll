define amdgpu_ps void @main(<4 x float> inreg %in0) {
entry:
  %x0 = extractelement <4 x float> %in0, i32 0
  %y0 = extractelement <4 x float> %in0, i32 1
  %z0 = extractelement <4 x float> %in0, i32 2
  %w0 = extractelement <4 x float> %in0, i32 3
  %k = fptosi float %x0 to i32
  switch i32 %k, label %def [ i32 0, label %c0
 i32 1, label %c1
 i32 2, label %c2 ]
c0:
  br label %j
c1:
  %v1 = fadd float %y0, 1.0
  br label %j
c2:
  %v2 = fmul float %y0, %z0
  br label %j
def:
  br label %j
j:
  %r = phi float [0.5, %c0], [%v1, %c1], [%v2, %c2], [%w0, %def]
  %out_v0 = insertelement <4 x float> undef, float %r, i32 0
  %out_v1 = insertelement <4 x float> %out_v0, float %x0, i32 1
  %out_v2 = insertelement <4 x float> %out_v1, float %y0, i32 2
  %out = insertelement <4 x float> %out_v2, float %z0, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
