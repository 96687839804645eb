import { Entity, EntityRepositoryType, OptionalProps, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import {
  CreatedAtColumn,
  SerialIdColumn,
  TextColumn,
  UpdatedAtColumn,
} from '../../kernel/entity-columns.js';
import { AgencyRepository } from './agency.repository.js';

@ObjectType({ description: 'An intermediary that receives advertiser payments (spec 2.4).' })
@Entity({ tableName: 'agency', repository: () => AgencyRepository })
export class Agency {
  [EntityRepositoryType]?: AgencyRepository;
  /** Set by the database or by MikroORM when the row is written. */
  [OptionalProps]?: 'createdAt' | 'updatedAt';

  @SerialIdColumn() id!: string;

  @TextColumn() name!: string;
  @TextColumn(undefined, '2-30 letters, digits, _ or -; unique ignoring case') code!: string;
  @TextColumn('business_name') businessName!: string;
  @TextColumn('business_number', '10 digits with a valid check digit') businessNumber!: string;
  @TextColumn('representative_name') representativeName!: string;
  @TextColumn('bank_name', 'Deposit account of advertiser payments: bank') bankName!: string;
  @TextColumn('account_number') accountNumber!: string;
  @TextColumn('account_holder') accountHolder!: string;
  @TextColumn() email!: string;
  @Field({ description: 'The default agency: rows whose agencyId is null belong to it' })
  @Property({ type: 'boolean', fieldName: 'is_default' })
  isDefault!: boolean;
  @Field({ description: 'false once deactivated: history kept, no new campaigns' })
  @Property({ type: 'boolean', fieldName: 'is_active' })
  isActive!: boolean;

  @CreatedAtColumn() createdAt!: Date;
  @UpdatedAtColumn(true) updatedAt!: Date;
}
