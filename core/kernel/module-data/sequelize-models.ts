/**
 * Sequelize models for a module's declared models, defined once per (tenant pool, module models
 * fingerprint) and scoped to the module's schema. Defaults live in the database (the DDL holds
 * them): an absent column with a default is sent as DEFAULT (Sequelize would otherwise send NULL
 * for absent primary keys and for gaps in bulk inserts), and RETURNING reports what was stored.
 */
import { DataTypes, literal, type ModelAttributeColumnOptions, type ModelStatic, type Model, type Sequelize } from 'sequelize';
import type { CompiledColumn, CompiledModels } from './types';

type Models = Map<string, ModelStatic<Model>>;

// Keyed by the pool's Sequelize instance: a pool closed for idleness takes its models with it.
const perPool = new WeakMap<Sequelize, Map<string, Map<string, Models>>>();
/** Versions of one module kept defined per pool (an upgrade briefly runs two). */
const VERSIONS_KEPT = 2;

function dataType(c: CompiledColumn) {
  switch (c.type) {
    case 'string':
      return DataTypes.STRING(c.length ?? 255);
    case 'text':
      return DataTypes.TEXT;
    case 'integer':
      return DataTypes.INTEGER;
    case 'bigint':
      return DataTypes.BIGINT;
    case 'decimal':
      return c.precision === undefined ? DataTypes.DECIMAL : DataTypes.DECIMAL(c.precision, c.scale ?? 0);
    case 'boolean':
      return DataTypes.BOOLEAN;
    case 'date':
      return DataTypes.DATEONLY;
    case 'datetime':
      return DataTypes.DATE;
    case 'json':
      return DataTypes.JSONB;
    case 'uuid':
      return DataTypes.UUID;
  }
}

function define(db: Sequelize, compiled: CompiledModels): Models {
  const models: Models = new Map();
  for (const m of compiled.models.values()) {
    const attributes: Record<string, ModelAttributeColumnOptions> = {};
    for (const c of m.columns.values()) {
      attributes[c.name] = { type: dataType(c), primaryKey: c.primaryKey, autoIncrement: c.autoIncrement, allowNull: c.nullable };
      if (c.hasDefault) attributes[c.name].defaultValue = literal('DEFAULT');
    }
    const model = db.define(`${compiled.alias}:${compiled.fingerprint}:${m.name}`, attributes, {
      schema: compiled.alias,
      tableName: m.table,
      freezeTableName: true,
      timestamps: false,
    });
    // Sequelize invents an "id" primary key for models declaring none; these tables have no such column.
    if (!m.primaryKey.length) model.removeAttribute('id');
    models.set(m.name, model);
  }
  return models;
}

/** The module's models on this tenant pool. */
export function sequelizeModels(db: Sequelize, compiled: CompiledModels): Models {
  const byAlias = perPool.get(db) ?? perPool.set(db, new Map()).get(db)!;
  const versions = byAlias.get(compiled.alias) ?? byAlias.set(compiled.alias, new Map()).get(compiled.alias)!;
  let models = versions.get(compiled.fingerprint);
  if (models) return models;
  models = define(db, compiled);
  versions.set(compiled.fingerprint, models);
  for (const [fp, old] of versions) {
    if (versions.size <= VERSIONS_KEPT) break;
    versions.delete(fp);
    for (const model of old.values()) db.modelManager.removeModel(model);
  }
  return models;
}
