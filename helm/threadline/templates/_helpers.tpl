{{/* Chart name, overridable. */}}
{{- define "threadline.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Prefix of every namespaced object's name: the release name, plus the chart name unless the
release name already contains it. */}}
{{- define "threadline.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* "<fullname>-<component>", e.g. threadline-operator. Call with (list . "operator"). */}}
{{- define "threadline.componentName" -}}
{{- $root := index . 0 }}
{{- printf "%s-%s" (include "threadline.fullname" $root | trunc 50 | trimSuffix "-") (index . 1) }}
{{- end }}

{{- define "threadline.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Standard labels for objects that belong to no single component. */}}
{{- define "threadline.labels" -}}
helm.sh/chart: {{ include "threadline.chart" . }}
app.kubernetes.io/name: {{ include "threadline.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: threadline
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Selector labels of a component. Call with (list . "operator"). */}}
{{- define "threadline.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ include "threadline.name" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{/* Standard labels of a component's objects. Call with (list . "operator"). */}}
{{- define "threadline.componentLabels" -}}
{{ include "threadline.labels" (index . 0) }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{/* "repository:tag", the tag defaulting to the chart's appVersion. Call with (list . .Values.x.image). */}}
{{- define "threadline.image" -}}
{{- $root := index . 0 }}
{{- $image := index . 1 }}
{{- printf "%s:%s" $image.repository (default $root.Chart.AppVersion $image.tag) }}
{{- end }}

{{- define "threadline.operator.serviceAccountName" -}}
{{- if .Values.operator.serviceAccount.create }}
{{- default (include "threadline.componentName" (list . "operator")) .Values.operator.serviceAccount.name }}
{{- else }}
{{- required "operator.serviceAccount.name is required when operator.serviceAccount.create is false" .Values.operator.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "threadline.apiServer.serviceAccountName" -}}
{{- if .Values.apiServer.serviceAccount.create }}
{{- default (include "threadline.componentName" (list . "api-server")) .Values.apiServer.serviceAccount.name }}
{{- else }}
{{- required "apiServer.serviceAccount.name is required when apiServer.serviceAccount.create is false" .Values.apiServer.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The Threadline kinds (plural resource names), for RBAC rules. Agents, environments, threads,
runs, schedules and containers: all six, whether or not their CRD is installed yet. */}}
{{- define "threadline.resources" -}}
- environments
- agents
- threads
- runs
- schedules
- containers
{{- end }}

{{/* The same kinds' status subresources. */}}
{{- define "threadline.statusResources" -}}
- environments/status
- agents/status
- threads/status
- runs/status
- schedules/status
- containers/status
{{- end }}

{{/* The same kinds' finalizers subresources: setting blockOwnerDeletion on an owned object requires
update on its owner's finalizers (OwnerReferencesPermissionEnforcement). */}}
{{- define "threadline.finalizerResources" -}}
- environments/finalizers
- agents/finalizers
- threads/finalizers
- runs/finalizers
- schedules/finalizers
- containers/finalizers
{{- end }}

{{/* Container securityContext, pod securityContext and /tmp volume shared by both Deployments. */}}
{{- define "threadline.tmpVolume" -}}
- name: tmp
  emptyDir: {}
{{- end }}

{{- define "threadline.tmpVolumeMount" -}}
- name: tmp
  mountPath: /tmp
{{- end }}

{{/* usage.tiers as THREADLINE_USAGE_TIERS: "free=10,pro=100,..." (USD per month). */}}
{{- define "threadline.usageTiers" -}}
{{- $entries := list -}}
{{- range $name, $usd := .Values.usage.tiers -}}
{{- $entries = append $entries (printf "%s=%v" $name $usd) -}}
{{- end -}}
{{- join "," $entries -}}
{{- end }}

{{/* <PREFIX>_{CPU,MEMORY,EPHEMERAL_STORAGE}_{REQUEST,LIMIT} variables from a resources value.
Call with (list "THREADLINE_AGENT" .Values.agents.resources). */}}
{{- define "threadline.resourceEnv" -}}
{{- $prefix := index . 0 }}
{{- $resources := index . 1 }}
{{- range $kind, $key := dict "REQUEST" "requests" "LIMIT" "limits" }}
{{- $values := index $resources $key }}
{{- range $resource, $name := dict "cpu" "CPU" "memory" "MEMORY" "ephemeral-storage" "EPHEMERAL_STORAGE" }}
- name: {{ printf "%s_%s_%s" $prefix $name $kind }}
  value: {{ index $values $resource | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/* OpenTelemetry traces (README "Traces"): the same OTEL_* variables for the operator and the api-server. */}}
{{- define "threadline.tracingEnv" -}}
{{- with .Values.tracing }}
{{- if .otlpEndpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ .otlpEndpoint | quote }}
{{- end }}
{{- if .headersSecret }}
- name: OTEL_EXPORTER_OTLP_HEADERS
  valueFrom:
    secretKeyRef:
      name: {{ .headersSecret }}
      key: headers
{{- end }}
{{- range $name, $value := .env }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/* Marks the Services the ServiceMonitor scrapes (the operator's and the api-server's metrics). */}}
{{- define "threadline.metricsServiceLabel" -}}
threadline.dev/metrics: "true"
{{- end }}

{{/* The Secret with the internal token of the operator's delta channel. */}}
{{- define "threadline.deltasSecretName" -}}
{{- .Values.deltas.existingSecret | default (include "threadline.componentName" (list . "deltas")) -}}
{{- end }}

{{/* The delta channel's token when the chart makes the Secret: random, made once per render (so
the Secret and the Deployments' checksum agree) and so rotated at every upgrade, both Deployments
rolling with it. */}}
{{- define "threadline.deltasToken" -}}
{{- if not (hasKey .Values.deltas "generatedToken") -}}
{{- $_ := set .Values.deltas "generatedToken" (randAlphaNum 48) -}}
{{- end -}}
{{- .Values.deltas.generatedToken -}}
{{- end }}

{{/* A Pod template's annotations: the checksum of the chart-made delta token (a new token restarts
the Pod, so operator and api-server always hold the same one), then the given ones. */}}
{{- define "threadline.podAnnotations" -}}
{{- $root := index . 0 -}}
{{- $given := index . 1 -}}
{{- $chartToken := and $root.Values.deltas.enabled (not $root.Values.deltas.existingSecret) -}}
{{- if or $chartToken $given }}
annotations:
  {{- if $chartToken }}
  threadline.dev/deltas-token-checksum: {{ include "threadline.deltasToken" $root | sha256sum | quote }}
  {{- end }}
  {{- with $given }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end }}
{{- end }}
