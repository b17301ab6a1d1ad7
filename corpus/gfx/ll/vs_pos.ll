; A vertex shader: position from the vertex index (v0) and a user SGPR scale, POS0 done.
define amdgpu_vs void @main(float inreg %scale, i32 %vid) {
  %x = uitofp i32 %vid to float
  %xs = fmul float %x, %scale
  call void @llvm.amdgcn.exp.f32(i32 12, i32 15, float %xs, float %scale, float 0.0, float 1.0, i1 true, i1 false)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
