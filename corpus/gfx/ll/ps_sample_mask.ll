; A sample-mask export: MRTZ channel z = 5 (samples 0 and 2; the 32_ABGR layout x = depth,
; y = stencil, z = sample mask, w = alpha), then MRT0 = (0, 1 + 0 * I, 0, 1) (I read so that
; the SPI loads PERSP_CENTER, not the first argument's PERSP_SAMPLE; 0 * I = 0 for finite I).
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %ij) {
  %m = bitcast i32 5 to float
  %i = extractelement <2 x float> %ij, i32 0
  %z = fmul float %i, 0.0
  %g = fadd float %z, 1.0
  call void @llvm.amdgcn.exp.f32(i32 8, i32 4, float undef, float undef, float %m, float undef, i1 false, i1 false)
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float 0.0, float %g, float 0.0, float 1.0, i1 true, i1 true)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
