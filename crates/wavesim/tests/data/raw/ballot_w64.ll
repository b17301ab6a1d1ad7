; A wave64 kernel for llc-19: every work-item stores the number of lanes of its wave whose
; global index is odd (llvm.amdgcn.ballot.i64 + popcount) plus 1000 * its lane id, so the
; result depends on the wave size (32 odd lanes per full wave64, 16 per wave32).
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i64 @llvm.amdgcn.ballot.i64(i1)
declare i64 @llvm.ctpop.i64(i64)
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)

define amdgpu_kernel void @ballot_w64(ptr addrspace(1) %out) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = mul i32 %wg, 128
  %gid = add i32 %base, %tid
  %odd = and i32 %gid, 1
  %isodd = icmp ne i32 %odd, 0
  %mask = call i64 @llvm.amdgcn.ballot.i64(i1 %isodd)
  %cnt64 = call i64 @llvm.ctpop.i64(i64 %mask)
  %cnt = trunc i64 %cnt64 to i32
  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %lane = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %lo)
  %lane1000 = mul i32 %lane, 1000
  %v = add i32 %cnt, %lane1000
  %idx = zext i32 %gid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="128,128" }
