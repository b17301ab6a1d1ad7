; MRTZ first (ISA 14.1: depth is exported first), then MRT0 and MRT1; done on the last.
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center, <2 x float> %persp_centroid, <3 x float> %pull, <2 x float> %lin_sample, <2 x float> %lin_center, <2 x float> %lin_centroid, float %stipple, float %x, float %y, float %z) {
  %d = fmul float %z, 0.5
  call void @llvm.amdgcn.exp.f32(i32 8, i32 1, float %d, float undef, float undef, float undef, i1 false, i1 true)
  %s = fsub float %x, %y
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %x, float %y, float %s, float 1.0, i1 false, i1 true)
  %p = fmul float %x, %y
  call void @llvm.amdgcn.exp.f32(i32 1, i32 15, float %p, float %p, float %p, float %p, i1 true, i1 true)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
