// A C interface to ozz-animation's runtime jobs for the benchmarks
// (bench/src/ozz.rs): skeletons and animations built from plain arrays
// through ozz's own offline builders, and the three jobs run on buffers
// the caller owns. Nothing here allocates while a job runs.

#include <cstdint>
#include <cstring>
#include <string>

#include "ozz/animation/offline/animation_builder.h"
#include "ozz/animation/offline/raw_animation.h"
#include "ozz/animation/offline/raw_skeleton.h"
#include "ozz/animation/offline/skeleton_builder.h"
#include "ozz/animation/runtime/animation.h"
#include "ozz/animation/runtime/local_to_model_job.h"
#include "ozz/animation/runtime/sampling_job.h"
#include "ozz/animation/runtime/skeleton.h"
#include "ozz/base/maths/simd_math.h"
#include "ozz/base/maths/soa_transform.h"
#include "ozz/base/memory/unique_ptr.h"
#include "ozz/geometry/runtime/skinning_job.h"

namespace {

namespace offline = ozz::animation::offline;

// A skeleton with the buffers its jobs write: local transforms (SoA, as
// sampling writes them) and model matrices, both in ozz's joint order.
struct Rig {
  ozz::unique_ptr<ozz::animation::Skeleton> skeleton;
  ozz::vector<ozz::math::SoaTransform> locals;
  ozz::vector<ozz::math::Float4x4> models;
};

struct Clip {
  ozz::unique_ptr<ozz::animation::Animation> animation;
  ozz::animation::SamplingJob::Context context;
};

// Adds joint `index` and its children (joints are named by their index in
// the caller's order, so that the caller can map ozz's order back).
void add_joint(offline::RawSkeleton::Joint* joint, int index, int count,
               const int* parents, const float* translations,
               const float* rotations) {
  joint->name = std::to_string(index);
  const float* t = translations + 3 * index;
  const float* r = rotations + 4 * index;
  joint->transform.translation = ozz::math::Float3(t[0], t[1], t[2]);
  joint->transform.rotation = ozz::math::Quaternion(r[0], r[1], r[2], r[3]);
  joint->transform.scale = ozz::math::Float3::one();
  for (int child = 0; child < count; ++child) {
    if (parents[child] == index) {
      joint->children.emplace_back();
      add_joint(&joint->children.back(), child, count, parents, translations,
                rotations);
    }
  }
}

}  // namespace

extern "C" {

// A skeleton of `count` joints: `parents[i]` is joint i's parent or -1,
// its rest translation xyz and rotation xyzw at 3i and 4i. Writes to
// `order[j]` the caller's index of ozz's joint j. Null on failure.
void* ozz_rig_new(int count, const int* parents, const float* translations,
                  const float* rotations, int* order) {
  offline::RawSkeleton raw;
  for (int joint = 0; joint < count; ++joint) {
    if (parents[joint] < 0) {
      raw.roots.emplace_back();
      add_joint(&raw.roots.back(), joint, count, parents, translations,
                rotations);
    }
  }
  offline::SkeletonBuilder builder;
  Rig* rig = new Rig;
  rig->skeleton = builder(raw);
  if (!rig->skeleton || rig->skeleton->num_joints() != count) {
    delete rig;
    return nullptr;
  }
  const auto names = rig->skeleton->joint_names();
  for (int joint = 0; joint < count; ++joint) {
    order[joint] = std::atoi(names[joint]);
  }
  const auto rest = rig->skeleton->joint_rest_poses();
  rig->locals.assign(rest.begin(), rest.end());
  rig->models.resize(count);
  return rig;
}

void ozz_rig_free(void* rig) { delete static_cast<Rig*>(rig); }

// LocalToModelJob over the rig's current locals (the rest pose, or the last
// sample written into them). Returns 0 on failure.
int ozz_local_to_model(void* opaque) {
  Rig* rig = static_cast<Rig*>(opaque);
  ozz::animation::LocalToModelJob job;
  job.skeleton = rig->skeleton.get();
  job.input = ozz::make_span(rig->locals);
  job.output = ozz::make_span(rig->models);
  return job.Run() ? 1 : 0;
}

// The rig's model matrices, 16 floats each (column-major), in ozz's order.
const float* ozz_rig_models(void* opaque) {
  Rig* rig = static_cast<Rig*>(opaque);
  return reinterpret_cast<const float*>(rig->models.data());
}

// The rig's locals as translation xyz and rotation xyzw per joint, in ozz's
// order (for checking a sample).
void ozz_rig_locals(void* opaque, float* translations, float* rotations) {
  Rig* rig = static_cast<Rig*>(opaque);
  const int count = rig->skeleton->num_joints();
  for (int joint = 0; joint < count; ++joint) {
    const ozz::math::SoaTransform& soa = rig->locals[joint / 4];
    const int lane = joint % 4;
    float values[10][4];
    const ozz::math::SimdFloat4 columns[10] = {
        soa.translation.x, soa.translation.y, soa.translation.z,
        soa.rotation.x,    soa.rotation.y,    soa.rotation.z,
        soa.rotation.w,    soa.scale.x,       soa.scale.y,
        soa.scale.z};
    for (int column = 0; column < 10; ++column) {
      ozz::math::StorePtrU(columns[column], values[column]);
    }
    for (int axis = 0; axis < 3; ++axis) {
      translations[3 * joint + axis] = values[axis][lane];
    }
    for (int axis = 0; axis < 4; ++axis) {
      rotations[4 * joint + axis] = values[3 + axis][lane];
    }
  }
}

// An animation of the rig's joints with `frames` keys a joint, one per
// second: `translations` holds xyz and `rotations` xyzw per frame and joint
// in the caller's order (frame-major). A joint whose keys never change gets
// one key, as a constant track. Null on failure.
void* ozz_clip_new(void* opaque, int frames, const float* translations,
                   const float* rotations, const int* order) {
  Rig* rig = static_cast<Rig*>(opaque);
  const int count = rig->skeleton->num_joints();
  offline::RawAnimation raw;
  raw.duration = frames > 1 ? static_cast<float>(frames - 1) : 1.f;
  raw.tracks.resize(count);
  for (int joint = 0; joint < count; ++joint) {
    const int source = order[joint];
    auto& track = raw.tracks[joint];
    bool moves = false;
    for (int frame = 1; frame < frames && !moves; ++frame) {
      moves = std::memcmp(translations + 3 * (frame * count + source),
                          translations + 3 * source, 3 * sizeof(float)) != 0 ||
              std::memcmp(rotations + 4 * (frame * count + source),
                          rotations + 4 * source, 4 * sizeof(float)) != 0;
    }
    const int keys = moves ? frames : 1;
    for (int frame = 0; frame < keys; ++frame) {
      const float* t = translations + 3 * (frame * count + source);
      const float* r = rotations + 4 * (frame * count + source);
      const float time = static_cast<float>(frame);
      track.translations.push_back({time, ozz::math::Float3(t[0], t[1], t[2])});
      track.rotations.push_back(
          {time, ozz::math::Quaternion(r[0], r[1], r[2], r[3])});
    }
  }
  offline::AnimationBuilder builder;
  Clip* clip = new Clip;
  clip->animation = builder(raw);
  if (!clip->animation) {
    delete clip;
    return nullptr;
  }
  clip->context.Resize(count);
  return clip;
}

void ozz_clip_free(void* clip) { delete static_cast<Clip*>(clip); }

// SamplingJob at `frame` (from 0) into the rig's locals. Returns 0 on
// failure.
int ozz_sample(void* opaque_clip, void* opaque_rig, float frame) {
  Clip* clip = static_cast<Clip*>(opaque_clip);
  Rig* rig = static_cast<Rig*>(opaque_rig);
  ozz::animation::SamplingJob job;
  job.animation = clip->animation.get();
  job.context = &clip->context;
  job.ratio = frame / clip->animation->duration();
  job.output = ozz::make_span(rig->locals);
  return job.Run() ? 1 : 0;
}

// SkinningJob: `vertices` vertices of `influences` influences each,
// `joints` matrices (16-byte aligned, column-major 4x4), `indices`
// `influences` a vertex, `weights` `influences - 1` a vertex (ozz restores
// the last), positions and normals packed xyz. `normals` and
// `out_normals` may be null. Returns 0 on failure.
int ozz_skin(int vertices, int influences, const float* matrices, int joints,
             const uint16_t* indices, const float* weights,
             const float* positions, const float* normals,
             float* out_positions, float* out_normals) {
  ozz::geometry::SkinningJob job;
  job.vertex_count = vertices;
  job.influences_count = influences;
  job.joint_matrices = {reinterpret_cast<const ozz::math::Float4x4*>(matrices),
                        static_cast<size_t>(joints)};
  const size_t n = static_cast<size_t>(vertices);
  job.joint_indices = {indices, n * influences};
  job.joint_indices_stride = sizeof(uint16_t) * influences;
  if (influences > 1) {
    job.joint_weights = {weights, n * (influences - 1)};
    job.joint_weights_stride = sizeof(float) * (influences - 1);
  }
  const size_t stride = 3 * sizeof(float);
  job.in_positions = {positions, n * 3};
  job.in_positions_stride = stride;
  job.out_positions = {out_positions, n * 3};
  job.out_positions_stride = stride;
  if (normals != nullptr && out_normals != nullptr) {
    job.in_normals = {normals, n * 3};
    job.in_normals_stride = stride;
    job.out_normals = {out_normals, n * 3};
    job.out_normals_stride = stride;
  }
  return job.Run() ? 1 : 0;
}

}  // extern "C"
